import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, formatExpression, literalsOf, parseExpression } from './expression';
import { formatRational } from './rational';

function value(text: string): string {
  const v = evaluate(parseExpression(text));
  return v ? formatRational(v) : 'division by zero';
}

describe('expression', () => {
  it('respects precedence and associativity', () => {
    expect(value('2 + 3 * 4')).toBe('14');
    expect(value('10 - 4 - 3')).toBe('3');
    expect(value('24 / 4 / 2')).toBe('3');
    expect(value('2 * 3 + 4 * 5')).toBe('26');
  });

  it('honours parentheses and unary minus', () => {
    expect(value('(2 + 3) * 4')).toBe('20');
    expect(value('10 - (4 - 3)')).toBe('9');
    expect(value('((1 + 1) * (2 + 2))')).toBe('8');
    expect(value('-3 + 5')).toBe('2');
    expect(value('6 * -(1 - 5)')).toBe('24');
  });

  it('is exact with fractions', () => {
    expect(value('8 / (3 - 8 / 3)')).toBe('24');
    expect(value('1 / 3 + 1 / 3')).toBe('2/3');
  });

  it('accepts the symbols models write', () => {
    expect(value('(10 − 4) × (13 − 9)')).toBe('24');
    expect(value('48 ÷ 2')).toBe('24');
  });

  it('reports division by zero as a null value', () => {
    expect(value('4 / (2 - 2)')).toBe('division by zero');
  });

  it('lists the literals in reading order', () => {
    expect(literalsOf(parseExpression('(10 - 4) * (13 - -9)')).map(formatRational)).toEqual(['10', '4', '13', '9']);
  });

  it('rejects bad input with a clear message', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['2 +', /ends too early/],
      ['(2 + 3', /expected "\)"/],
      ['2 + 3)', /unexpected "\)"/],
      ['2 3', /unexpected "3"/],
      ['2 ^ 3', /unexpected "\^" at 3/],
      ['1.5 * 16', /whole numbers/],
      ['Math.max(24)', /unexpected "M"/],
      ['* 3', /expected a number/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseExpression(text), text).toThrow(ExpressionError);
      expect(() => parseExpression(text), text).toThrow(message);
    }
  });

  it('writes the fewest parentheses that keep the value', () => {
    const samples = [
      '(10 - 4) * (13 - 9)',
      '8 / (3 - 8 / 3)',
      '10 - (4 - 3)',
      '(1 + 2) + 3',
      '24 / (4 / 2)',
      '(2 * 3) * 4',
    ];
    for (const s of samples) {
      const e = parseExpression(s);
      const written = formatExpression(e);
      expect(value(written), `${s} -> ${written}`).toBe(value(s));
    }
    expect(formatExpression(parseExpression('(1 + 2) + 3'))).toBe('1 + 2 + 3');
    expect(formatExpression(parseExpression('10 - (4 - 3)'))).toBe('10 - (4 - 3)');
    expect(formatExpression(parseExpression('(10 - 4) * (13 - 9)'), { flat: true })).toBe('10 - 4 * 13 - 9');
  });
});
