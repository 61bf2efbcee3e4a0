// Timestamps the way apimachinery encodes them: metav1.Time (RFC 3339, whole seconds, UTC) and
// metav1.MicroTime (parsed with the layout 2006-01-02T15:04:05.000000Z07:00, so exactly six
// fraction digits), and the human durations kubectl shows for `date` columns.

const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
const MICRO_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})(Z|[+-]\d{2}:\d{2})$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Now, as metav1.Now() serializes. */
export function nowTime(): string {
  return formatTime(Date.now());
}

function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** metav1.MicroTime.UnmarshalJSON: the value in UTC with six digits, or an error like Go's time.Parse. */
export function decodeMicroTime(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`json: cannot unmarshal ${typeof value} into Go value of type v1.MicroTime`);
  const match = MICRO_TIME.exec(value);
  const seconds = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(seconds)) throw new Error(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(MICRO_LAYOUT)}: cannot parse ${JSON.stringify(value)} as ${JSON.stringify(MICRO_LAYOUT)}`);
  return `${new Date(seconds).toISOString().slice(0, 19)}.${match[2]}Z`;
}

/** metav1.Time.UnmarshalJSON: RFC 3339 (fractions allowed), re-encoded in whole seconds. */
export function decodeTime(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`json: cannot unmarshal ${typeof value} into Go value of type v1.Time`);
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new Error(`parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)}`);
  return formatTime(ms);
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${hours / 24}d` : `${Math.trunc(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${days / 365}y` : `${Math.trunc(days / 365)}y${days % 365}d`;
  return `${Math.trunc(days / 365)}y`;
}

/** metatable.ConvertToHumanReadableDateType of a date cell's string (metav1.Time.UnmarshalQueryParameter). */
export function ageOf(value: string, now = Date.now()): string {
  if (value === '' || value === 'null') return '<unknown>';
  const ms = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) return '<invalid>';
  return humanDuration(now - ms);
}
