import { expect } from 'chai';
import { createDb, migrate } from '../../../pkg/db/index.js';
import { ownDatabase } from '../../support/triggers.js';

describe('Migrations', () => {
  it("take the credit stripes (006) and the upgrade leftovers (024) down and up again, keeping every balance, and carry an older replica's charges into them", async () => {
    const database = await ownDatabase();
    const db = createDb(database.url, 2);
    const balances = async () =>
      Object.fromEntries(
        (
          await db.raw(
            `select t.id, coalesce(sum(b.balance), 0) as total from tenants t left join credit_balances b on b.tenant_id = t.id group by t.id`,
          )
        ).rows.map((r: { id: string; total: string }) => [r.id, Number(r.total)]),
      );
    try {
      await db.raw(
        `insert into tenants (id, name, created_at, updated_at) values ('one', 'One', now(), now()), ('two', 'Two', now(), now())`,
      );
      await db.raw(`insert into credit_balances (tenant_id, stripe, balance) values ('one', 0, 5), ('one', 7, -1.5)`);
      // Back to the schema of the upgrade after 006, before 024 dropped what older replicas used.
      await db.migrate.down({ name: '024_upgrade_leftovers' });
      expect((await db('tenants').orderBy('id').select('id', 'credit_balance')).map((r) => [r.id, Number(r.credit_balance)])).to.deep.equal(
        [
          ['one', 3.5],
          ['two', 0],
        ],
      );
      // A replica of the release before, mid-upgrade, charges the column it knows: the charge reaches the stripes.
      await db.raw(`update tenants set credit_balance = credit_balance - 2 where id = 'two'`);
      expect(await balances()).to.deep.equal({ one: 3.5, two: -2 });

      await db.migrate.down({ name: '006_credit_stripes' });

      const before = (await db('tenants').orderBy('id').select('id', 'credit_balance')).map((r) => [r.id, Number(r.credit_balance)]);
      expect(before).to.deep.equal([
        ['one', 3.5],
        ['two', -2],
      ]);

      await migrate(db);

      expect(await balances()).to.deep.equal({ one: 3.5, two: -2 });
      // 024 took away what only the release before 005 and 006 used.
      expect(await db.schema.hasColumn('tenants', 'credit_balance')).to.equal(false);
      const left = await db.raw(
        `select proname from pg_proc where proname in ('switchboard_claim_triggers', 'switchboard_forward_credit_balance')`,
      );
      expect(left.rows).to.deep.equal([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
  it('drop the indexes no statement needs from 035 on, and bring them back going down', async () => {
    const database = await ownDatabase();
    const db = createDb(database.url, 2);
    const dropped = ['credit_ledger_tenant', 'triggers_claimable', 'triggers_due'];
    const present = async () =>
      (await db.raw(`select indexname from pg_indexes where indexname = any(?) order by indexname`, [dropped])).rows.map(
        (r: { indexname: string }) => r.indexname,
      );
    try {
      expect(await present()).to.deep.equal([]);
      await db.migrate.down({ name: '035_write_fewer_indexes' });
      expect(await present()).to.deep.equal(dropped);
      await migrate(db);
      expect(await present()).to.deep.equal([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
  it("index from 036 on only the running jobs that hold a place under their company's cap, and every running one going down", async () => {
    const database = await ownDatabase();
    const db = createDb(database.url, 2);
    const predicate = async () =>
      (await db.raw(`select pg_get_expr(indpred, indrelid) as p from pg_index where indexrelid = 'triggers_tenant_slot'::regclass`)).rows[0]
        .p;
    try {
      expect(await predicate()).to.equal(`((status = 'running'::text) AND (tenant_slot IS NOT NULL))`);
      await db.migrate.down({ name: '036_tenant_slot_held' });
      expect(await predicate()).to.equal(`(status = 'running'::text)`);
      await migrate(db);
      expect(await predicate()).to.equal(`((status = 'running'::text) AND (tenant_slot IS NOT NULL))`);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
  it('draw contact ids at random from 029 on, keeping the ids given before it', async () => {
    const database = await ownDatabase();
    const db = createDb(database.url, 2);
    const insertContact = async (externalUserId: string): Promise<number> =>
      (
        await db.raw(
          `insert into contacts (tenant_id, external_user_id, created_at, updated_at) values ('one', ?, now(), now()) returning id`,
          [externalUserId],
        )
      ).rows[0].id;
    try {
      await db.raw(`insert into tenants (id, name, created_at, updated_at) values ('one', 'One', now(), now())`);
      await db.migrate.down({ name: '029_contact_ids' });
      const before = [await insertContact('a'), await insertContact('b')];
      expect(before[1]! - before[0]!).to.equal(1);
      await migrate(db);
      expect((await db('contacts').orderBy('external_user_id').select('id')).map((r) => r.id)).to.deep.equal(before);
      const drawn = await insertContact('c');
      expect(Number.isSafeInteger(drawn)).to.equal(true);
      expect(Math.abs(drawn - before[1]!)).to.be.greaterThan(1_000_000);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
