import { at, ExpressionError, FREQUENCY_LETTERS, type Expression, type FrequencyLetter } from './expression';
import { tokenize, type Token } from './tokens';

/**
 * Parses a formula of the safe language (GENETICS.md "Analyses are data"): numbers (1, 0.5, 1e-3), the
 * frequency letters p…u, constant names (theta, kappa0, mu, A), + − × ÷ ^ (also - * /), unary minus and
 * parentheses. Powers bind tightest and to the right (2^3^2 = 2^9), then unary minus, then × ÷, then + −.
 * Never evaluates text as code; an error names the offending token and its 1-based position.
 */
export function parseExpression(text: string): Expression {
  const parser = new Parser(tokenize(text));
  if (parser.peek().kind === 'end') throw new ExpressionError('Empty expression', 0);
  const expression = parser.sum();
  parser.expectEnd();
  return expression;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  peek(): Token {
    return this.tokens[this.index]!;
  }

  /** sum := product (('+' | '-') product)* */
  sum(): Expression {
    let left = this.product();
    for (let token = this.peek(); isOperator(token, '+', '-'); token = this.peek()) {
      this.index++;
      left = { kind: 'binary', operator: token.text as '+' | '-', left, right: this.product(), offset: token.offset };
    }
    return left;
  }

  /** product := unary (('*' | '/') unary)* */
  private product(): Expression {
    let left = this.unary();
    for (let token = this.peek(); isOperator(token, '*', '/'); token = this.peek()) {
      this.index++;
      left = { kind: 'binary', operator: token.text as '*' | '/', left, right: this.unary(), offset: token.offset };
    }
    return left;
  }

  /** unary := '-' unary | power */
  private unary(): Expression {
    const token = this.peek();
    if (isOperator(token, '-')) {
      this.index++;
      return { kind: 'negate', operand: this.unary(), offset: token.offset };
    }
    return this.power();
  }

  /** power := primary ('^' unary)?  — right-associative, and 2^-1 is allowed. */
  private power(): Expression {
    const base = this.primary();
    const token = this.peek();
    if (!isOperator(token, '^')) return base;
    this.index++;
    return { kind: 'binary', operator: '^', left: base, right: this.unary(), offset: token.offset };
  }

  /** primary := number | name | '(' sum ')' */
  private primary(): Expression {
    const token = this.peek();
    this.index++;
    if (token.kind === 'number') return { kind: 'number', value: Number(token.text), text: token.text, offset: token.offset };
    if (token.kind === 'name') {
      return isFrequencyLetter(token.text)
        ? { kind: 'frequency', letter: token.text, offset: token.offset }
        : { kind: 'constant', name: token.text, offset: token.offset };
    }
    if (isOperator(token, '(')) {
      const inner = this.sum();
      const close = this.peek();
      if (!isOperator(close, ')')) throw this.unexpected(close, `expected ')' to close the '(' ${at(token.offset)}`);
      this.index++;
      return inner;
    }
    throw this.unexpected(token, 'expected a number, a frequency letter, a constant or (');
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind === 'end') return;
    // Every operator has been consumed by now: what is left is a stray ')' or two factors side by side.
    throw this.unexpected(token, isOperator(token, ')') ? "no '(' to close" : 'write × or * between factors');
  }

  private unexpected(token: Token, hint: string): ExpressionError {
    const what = token.kind === 'end' ? 'end of expression' : `'${token.text}'`;
    return new ExpressionError(`Unexpected ${what} ${at(token.offset)} (${hint})`, token.offset);
  }
}

function isOperator(token: Token, ...texts: string[]): boolean {
  return token.kind === 'operator' && texts.includes(token.text);
}

function isFrequencyLetter(text: string): text is FrequencyLetter {
  return (FREQUENCY_LETTERS as readonly string[]).includes(text);
}
