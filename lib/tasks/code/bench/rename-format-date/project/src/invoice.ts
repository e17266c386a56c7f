import { fmtDate } from './dates';

export interface Invoice {
  number: string;
  issued: Date;
  due: Date;
}

/** The invoice's header line. */
export function invoiceHeader(invoice: Invoice): string {
  return `Invoice ${invoice.number}, issued ${fmtDate(invoice.issued, 'long')}, due ${fmtDate(invoice.due, 'long')}`;
}
