// Numbered migrations, compiled in (no file globbing at run time).
import type { Knex } from 'knex';
import * as m001 from './migrations/001_foundation.js';
import * as m002 from './migrations/002_triggers.js';
import * as m003 from './migrations/003_voice.js';
import * as m004calls from './migrations/004_calls.js';
import * as m005 from './migrations/005_claim.js';
import * as m006 from './migrations/006_credit_stripes.js';
import * as m007 from './migrations/007_campaigns.js';
import * as m008 from './migrations/008_numbers.js';
import * as m009 from './migrations/009_agent_calls.js';
import * as m010 from './migrations/010_message_recordings.js';
import * as m011 from './migrations/011_queue_member_busy.js';
import * as m012 from './migrations/012_carrier.js';
import * as m013 from './migrations/013_carrier_sid.js';
import * as m014 from './migrations/014_carrier_step.js';
import * as m015 from './migrations/015_carrier_accounts.js';
import * as m016 from './migrations/016_console.js';
import * as m017 from './migrations/017_calls_conversation.js';
import * as m018 from './migrations/018_console_sso.js';
import * as m019 from './migrations/019_webhook_heads.js';
import * as m020 from './migrations/020_fair_claim.js';
import * as m021 from './migrations/021_turn_locks.js';
import * as m022 from './migrations/022_claim_by_account.js';
import * as m023 from './migrations/023_webhook_fair_claim.js';
import * as m024 from './migrations/024_upgrade_leftovers.js';
import * as m025 from './migrations/025_live_row_indexes.js';
import * as m026 from './migrations/026_carrier_transfer.js';
import * as m027 from './migrations/027_telnyx.js';
import * as m028 from './migrations/028_carrier_answer.js';
import * as m029 from './migrations/029_contact_ids.js';
import * as m030 from './migrations/030_invoices.js';
import * as m031 from './migrations/031_voices.js';
import * as m032 from './migrations/032_calls_per_minute.js';
import * as m033 from './migrations/033_verification.js';
import * as m034 from './migrations/034_invoice_indexes.js';
import * as m035 from './migrations/035_write_fewer_indexes.js';
import * as m036 from './migrations/036_tenant_slot_held.js';

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_triggers': m002,
  '003_voice': m003,
  '004_calls': m004calls,
  '005_claim': m005,
  '006_credit_stripes': m006,
  '007_campaigns': m007,
  '008_numbers': m008,
  '009_agent_calls': m009,
  '010_message_recordings': m010,
  '011_queue_member_busy': m011,
  '012_carrier': m012,
  '013_carrier_sid': m013,
  '014_carrier_step': m014,
  '015_carrier_accounts': m015,
  '016_console': m016,
  '017_calls_conversation': m017,
  '018_console_sso': m018,
  '019_webhook_heads': m019,
  '020_fair_claim': m020,
  '021_turn_locks': m021,
  '022_claim_by_account': m022,
  '023_webhook_fair_claim': m023,
  '024_upgrade_leftovers': m024,
  '025_live_row_indexes': m025,
  '026_carrier_transfer': m026,
  '027_telnyx': m027,
  '028_carrier_answer': m028,
  '029_contact_ids': m029,
  '030_invoices': m030,
  '031_voices': m031,
  '032_calls_per_minute': m032,
  '033_verification': m033,
  '034_invoice_indexes': m034,
  '035_write_fewer_indexes': m035,
  '036_tenant_slot_held': m036,
};

export const latestMigration = Object.keys(migrations).at(-1)!;

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name]!,
};
