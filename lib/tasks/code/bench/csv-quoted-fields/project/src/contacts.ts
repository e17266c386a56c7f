import { parseCsv } from './csv';

export interface Contact {
  name: string;
  email: string;
  company: string;
}

/** The contacts of an export, e-mail addresses lower-cased; rows without an address are left out. */
export function importContacts(text: string): Contact[] {
  return parseCsv(text)
    .filter((row) => (row.email ?? '') !== '')
    .map((row) => ({ name: row.name ?? '', email: (row.email ?? '').toLowerCase(), company: row.company ?? '' }));
}
