/**
 * Which model licences the service accepts. The service is MIT and self-hosted by others, so weights under a
 * strong copyleft licence (GPL, AGPL, any version, `-only`/`-or-later`/`+`, with or without a `WITH` exception)
 * are refused. LGPL is allowed: its obligations attach to modifying the library itself, and we only load the
 * weights as data. The check is deliberately coarse: an expression that mentions GPL or AGPL anywhere, even as
 * one side of an `OR`, is refused, so nobody has to argue about which side of a choice we took.
 */
const COPYLEFT = /^(A?GPL)(-|\+|$)/i;

/** The licence identifiers (SPDX) of an expression such as `(MIT OR GPL-2.0-or-later)`. */
function identifiersOf(expression: string): string[] {
  return expression
    .split(/[\s()]+/)
    .filter((token) => token !== '' && !/^(AND|OR|WITH)$/i.test(token));
}

export function isRefusedLicence(expression: string): boolean {
  return identifiersOf(expression).some((id) => COPYLEFT.test(id));
}

export function assertLicenceAllowed(expression: string, what: string): void {
  if (isRefusedLicence(expression)) {
    throw new Error(`${what} is licensed "${expression}"; GPL and AGPL models are refused (LGPL and permissive licences are allowed)`);
  }
}
