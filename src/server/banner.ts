/**
 * What `erx serve` prints on start: where to go and how to get a token. The demo clients' secrets
 * are printed at the start that created them only; later starts name the file that keeps them.
 */
import type { DemoClientInfo, DemoClients } from './demo-clients.js';

/** Host names that name the machine itself: a phone that scans a link to one reaches only itself. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The warning line for links based at `prescriptionUrl` when its host is this machine only
 * (localhost, 127.0.0.1, ::1), else undefined.
 */
export function loopbackLinkWarning(prescriptionUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(prescriptionUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (!LOOPBACK_HOSTS.has(host) && !host.endsWith('.localhost')) return undefined;
  return `  warning: links and QR codes point to ${prescriptionUrl}, which a phone cannot open; set ERX_PRESCRIPTION_URL to an address phones reach`;
}

/**
 * The start-up text for a service listening at `url`, its metrics at `metricsUrl` (undefined:
 * `ERX_METRICS_ADDR=off`), writing links based at `prescriptionUrl` (warned about when it names
 * this machine only).
 */
export function banner(
  url: string,
  demo: DemoClients | undefined,
  embeddedAuth: boolean,
  metricsUrl: string | undefined,
  prescriptionUrl?: string,
): string {
  const lines = [
    `erx is listening on ${url}`,
    `  API reference: ${url}/docs   OpenAPI: ${url}/openapi.json`,
    `  health: ${url}/healthz  ${url}/readyz  metrics: ${metricsUrl ?? 'off (ERX_METRICS_ADDR)'}`,
  ];
  const warning = prescriptionUrl === undefined ? undefined : loopbackLinkWarning(prescriptionUrl);
  if (warning) lines.push(warning);
  if (!embeddedAuth) {
    lines.push('  tokens: issued by the external token service (ERX_AUTH_URL)');
    return `${lines.join('\n')}\n`;
  }
  if (!demo) {
    lines.push('  tokens: erx clients add … then erx token --client-id … --client-secret …');
    return `${lines.join('\n')}\n`;
  }
  const doctor = demo.clients.find((d) => d.role === 'prescriber');
  const pharmacy = demo.clients.find((d) => d.role === 'pharmacist');
  // The secret is read from the file where the command runs, so no later start prints it.
  const file = shellQuote(demo.file);
  const tokenCmd = (c: DemoClientInfo | undefined): string =>
    c
      ? `curl -s -u "${c.clientId}:$(jq -r '.[] | select(.clientId == "${c.clientId}") | .clientSecret' ${file})" -d grant_type=client_credentials ${url}/REST/v1/OAuth/token`
      : '';
  lines.push(
    '',
    ...(demo.created
      ? [
          `Demo clients (secrets printed this once; kept in ${demo.file}, mode 0600; delete it and the clients outside a trial):`,
          ...demo.clients.map(
            (d) =>
              `  ${d.role.padEnd(10)} ${d.clientId}  secret ${d.clientSecret}  (${d.name}, ${d.sub})`,
          ),
        ]
      : [
          `Demo clients (secrets in ${demo.file}, printed at the first start only; delete it and the clients outside a trial):`,
          ...demo.clients.map((d) => `  ${d.role.padEnd(10)} ${d.clientId}  (${d.name}, ${d.sub})`),
        ]),
    '',
    'Try it (needs jq):',
    `  DOC=$(${tokenCmd(doctor)} | jq -r .access_token)`,
    `  PHARMA=$(${tokenCmd(pharmacy)} | jq -r .access_token)`,
    `  jq --arg id "$(cat /proc/sys/kernel/random/uuid)" --arg dt "$(date -Iseconds)" \\`,
    `     '.Id = $id | .Dt = $dt' examples/prescription.json |`,
    `    curl -s -H "Authorization: Bearer acs:$DOC" -H 'Content-Type: application/json' \\`,
    `       --data-binary @- '${url}/ePrescription/create?output-format=data' | tee created.json`,
    `  jq -r .SignedPrescriptionData created.json > link.txt`,
    `  curl -s -H 'Content-Type: application/json' -d @link.txt ${url}/ePrescription/verify`,
    `  curl -s -X POST -H "Authorization: Bearer acs:$PHARMA" -H 'Content-Type: application/json' \\`,
    `       ${url}/ePrescription/dispense/$(jq -r .prescription_id created.json)`,
    `  curl -s -H "Authorization: Bearer acs:$PHARMA" -H 'Content-Type: application/json' -d @link.txt ${url}/ePrescription/verify`,
  );
  return `${lines.join('\n')}\n`;
}

/** `text` as one single-quoted shell word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
