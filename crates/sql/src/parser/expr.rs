//! Expressions, by precedence from loosest: OR, AND, NOT, comparisons and predicates
//! (IS NULL, IN, BETWEEN, LIKE), + - & | ^, * / %, unary - + ~.

use super::{PResult, Parser};
use crate::ast::{
    BinaryOp, Expr, ExprKind, Literal, ObjectName, SelectItem, Span, UnaryOp, Window,
};
use crate::keywords;
use crate::lexer::{unquote_string, Tok};

/// Reserved words that still begin an expression.
const RESERVED_EXPR_STARTS: &[&str] = &[
    "NULL",
    "CASE",
    "CONVERT",
    "COALESCE",
    "NULLIF",
    "EXISTS",
    "NOT",
    "LEFT",
    "RIGHT",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "SESSION_USER",
    "SYSTEM_USER",
    "USER",
    "TRY_CONVERT",
];

/// Functions written without parentheses.
pub(crate) const NILADIC: &[&str] = &[
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "SESSION_USER",
    "SYSTEM_USER",
    "USER",
];

/// Teradata's other functions written without parentheses (`CURRENT_TIMESTAMP` and `USER`
/// are in [`NILADIC`]); `CURRENT_TIME(p)` and `CURRENT_TIMESTAMP(p)` also take a precision.
pub(crate) const TERADATA_NILADIC: &[&str] = &["CURRENT_DATE", "CURRENT_TIME"];

/// Teradata reserved words that are also functions: followed by `(` they are calls.
const TERADATA_FUNCTIONS: &[&str] = &[
    "ABS",
    "ADD_MONTHS",
    "AVE",
    "AVERAGE",
    "AVG",
    "CHARACTER_LENGTH",
    "CHAR_LENGTH",
    "COALESCE",
    "COUNT",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "EXP",
    "HASHAMP",
    "HASHBUCKET",
    "HASHROW",
    "LN",
    "LOWER",
    "MAX",
    "MAXIMUM",
    "MIN",
    "MINIMUM",
    "NULLIF",
    "NULLIFZERO",
    "OCTET_LENGTH",
    "PERCENT_RANK",
    "RANDOM",
    "RANK",
    "ROW_NUMBER",
    "SQRT",
    "SUBSTR",
    "SUM",
    "UPPER",
    "ZEROIFNULL",
];

fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    let span = left.span.start..right.span.end;
    Expr {
        kind: ExprKind::Binary {
            op,
            left: Box::new(left),
            right: Box::new(right),
        },
        span,
    }
}

impl Parser<'_> {
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter("expression")?;
        let e = self.or_expr()?;
        self.leave();
        Ok(e)
    }

    /// A search condition: WHERE, HAVING, ON, IF, WHILE, CASE WHEN, CHECK. T-SQL has no
    /// boolean values, so its grammar takes only predicates there (comparisons, IN,
    /// BETWEEN, LIKE, IS NULL, EXISTS, joined by AND, OR, NOT): `WHERE active` or
    /// `WHILE 1` is Msg 4145 when the batch compiles, and nothing in it runs. PostgreSQL
    /// takes any boolean expression, and refuses other types when it runs (42804).
    pub(crate) fn condition(&mut self) -> PResult<Expr> {
        let e = self.expr()?;
        self.check_condition(&e)?;
        Ok(e)
    }

    /// Fails as [`Self::condition`] does where `e`, parsed as an expression, stands for
    /// a condition (IIF's first argument).
    fn check_condition(&self, e: &Expr) -> PResult<()> {
        if self.dialect == crate::Dialect::TSql {
            if let Some(bad) = not_a_predicate(e) {
                // The server names the token after the expression (`near ';'`, `near
                // 'THEN'`); at the end of the batch, its last token.
                let after = self.toks.iter().find(|t| t.start >= bad.span.end);
                let near = after.or_else(|| self.toks.iter().rev().find(|t| t.end <= bad.span.end));
                let span = near.map_or(bad.span.clone(), |t| t.start..t.end);
                let text = near.map_or("", |t| self.text(t));
                return Err(crate::ParseError::new(
                    span,
                    format!(
                        "Msg 4145: An expression of non-boolean type specified in a context \
                         where a condition is expected, near '{text}'."
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether the current token can begin an expression (quiet); for optional operands
    /// such as `RETURN [expr]` where a statement may follow instead.
    pub(crate) fn starts_expr(&self) -> bool {
        match self.kind_at(0) {
            Some(
                Tok::Int
                | Tok::Decimal
                | Tok::Str
                | Tok::NStr
                | Tok::Var
                | Tok::Global
                | Tok::LParen
                | Tok::Minus
                | Tok::Plus
                | Tok::Tilde
                | Tok::QuotedIdent
                | Tok::Binary,
            ) => true,
            Some(Tok::Word) => {
                let w = self.word_at(0).unwrap_or_default();
                keywords::can_be_alias(&w, self.dialect)
                    || RESERVED_EXPR_STARTS.contains(&w.as_str())
            }
            _ => false,
        }
    }

    fn or_expr(&mut self) -> PResult<Expr> {
        self.chain(Self::or_links)
    }

    fn or_links(&mut self) -> PResult<Expr> {
        let mut left = self.and_expr()?;
        while self.at_kw("OR") {
            self.link("expression")?;
            self.advance();
            let right = self.and_expr()?;
            left = binary(BinaryOp::Or, left, right);
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> PResult<Expr> {
        self.chain(Self::and_links)
    }

    fn and_links(&mut self) -> PResult<Expr> {
        let mut left = self.not_expr()?;
        while self.at_kw("AND") {
            self.link("expression")?;
            self.advance();
            let right = self.not_expr()?;
            left = binary(BinaryOp::And, left, right);
        }
        Ok(left)
    }

    fn not_expr(&mut self) -> PResult<Expr> {
        if self.at_kw("NOT") {
            let start = self.advance().start;
            self.enter("expression")?;
            let inner = self.not_expr()?;
            self.leave();
            return Ok(Expr {
                span: start..inner.span.end,
                kind: ExprKind::Unary {
                    op: UnaryOp::Not,
                    expr: Box::new(inner),
                },
            });
        }
        self.predicate()
    }

    fn comparison_op(&mut self) -> Option<BinaryOp> {
        let ops = [
            (Tok::Eq, BinaryOp::Eq),
            (Tok::Ne, BinaryOp::Ne),
            (Tok::Lt, BinaryOp::Lt),
            (Tok::Le, BinaryOp::Le),
            (Tok::Gt, BinaryOp::Gt),
            (Tok::Ge, BinaryOp::Ge),
        ];
        ops.into_iter().find(|&(t, _)| self.at(t)).map(|(_, op)| op)
    }

    fn predicate(&mut self) -> PResult<Expr> {
        let left = self.other_operators()?;
        if let Some(op) = self.comparison_op() {
            self.advance();
            if ["ALL", "ANY", "SOME"].iter().any(|w| self.kw_at(0, w)) {
                return self.quantified_comparison(op, left);
            }
            let right = self.other_operators()?;
            return Ok(binary(op, left, right));
        }
        self.postfix_predicate(left)
    }

    /// `x = ANY (query)` (or SOME) is `x IN (query)`, and `x <> ALL (query)` is `x NOT IN
    /// (query)`, as the standard defines IN; other quantified comparisons are not
    /// simulated.
    #[inline(never)]
    fn quantified_comparison(&mut self, op: BinaryOp, left: Expr) -> PResult<Expr> {
        let span = self.cur_span();
        let w = self.word_at(0).unwrap_or_default();
        let negated = match (op, w.as_str()) {
            (BinaryOp::Eq, "ANY" | "SOME") => false,
            (BinaryOp::Ne, "ALL") => true,
            _ => {
                let op = crate::print::binary_symbol(op);
                return Err(self.not_simulated(span, &format!("{op} {w} comparisons")));
            }
        };
        let subquery =
            self.kind_at(1) == Some(Tok::LParen) && (self.select_at(2) || self.kw_at(2, "WITH"));
        if !subquery {
            return Err(self.not_simulated(span, &format!("{w} over a list or an array (use IN)")));
        }
        self.advance();
        self.expect(Tok::LParen)?;
        let query = self.select_query()?;
        self.expect(Tok::RParen)?;
        Ok(Expr {
            span: left.span.start..self.prev_end(),
            kind: ExprKind::InSubquery {
                expr: Box::new(left),
                query: Box::new(query),
                negated,
            },
        })
    }

    /// `[NOT] IN / BETWEEN / LIKE`, `IS [NOT] NULL` after an operand, or the operand alone.
    /// Kept out of `predicate`, whose frame is on the path of every nested expression.
    #[inline(never)]
    fn postfix_predicate(&mut self, left: Expr) -> PResult<Expr> {
        let start = left.span.start;
        // `NOT` here only as part of NOT IN / NOT BETWEEN / NOT LIKE.
        let negated = self.at_kw("NOT")
            && matches!(
                self.word_at(1).as_deref(),
                Some("IN" | "BETWEEN" | "LIKE" | "ILIKE")
            );
        if negated {
            self.advance();
        }
        if !negated && self.eat_kw("IS") {
            let negated = self.eat_kw("NOT");
            if !self.teradata() && self.eat_kw("DISTINCT") {
                self.expect_kw("FROM")?;
                let right = self.other_operators()?;
                let op = if negated {
                    BinaryOp::IsNotDistinct
                } else {
                    BinaryOp::IsDistinct
                };
                return Ok(binary(op, left, right));
            }
            if self.postgres() {
                // `IS [NOT] TRUE | FALSE`: never NULL, so IS [NOT] DISTINCT FROM the
                // boolean; `IS [NOT] UNKNOWN` is IS [NOT] NULL.
                let truth = match self.word_at(0).as_deref() {
                    Some("TRUE") => Some(true),
                    Some("FALSE") => Some(false),
                    _ => None,
                };
                if let Some(truth) = truth {
                    let span = self.cur_span();
                    self.advance();
                    let right = Expr {
                        kind: ExprKind::Literal(Literal::Bool(truth)),
                        span,
                    };
                    let op = if negated {
                        BinaryOp::IsDistinct
                    } else {
                        BinaryOp::IsNotDistinct
                    };
                    return Ok(binary(op, left, right));
                }
                self.note("TRUE");
                self.note("FALSE");
                if self.eat_kw("UNKNOWN") {
                    return Ok(Expr {
                        kind: ExprKind::IsNull {
                            expr: Box::new(left),
                            negated,
                        },
                        span: start..self.prev_end(),
                    });
                }
                self.note("UNKNOWN");
            }
            if !self.teradata() {
                self.note("DISTINCT");
            }
            self.expect_kw("NULL")?;
            return Ok(Expr {
                kind: ExprKind::IsNull {
                    expr: Box::new(left),
                    negated,
                },
                span: start..self.prev_end(),
            });
        }
        if self.eat_kw("IN") {
            self.expect(Tok::LParen)?;
            let kind = if self.select_at(0) || self.kw_at(0, "WITH") {
                let query = self.select_query()?;
                ExprKind::InSubquery {
                    expr: Box::new(left),
                    query: Box::new(query),
                    negated,
                }
            } else {
                let mut list = vec![self.expr()?];
                while self.eat(Tok::Comma) {
                    list.push(self.expr()?);
                }
                ExprKind::InList {
                    expr: Box::new(left),
                    list,
                    negated,
                }
            };
            self.expect(Tok::RParen)?;
            return Ok(Expr {
                kind,
                span: start..self.prev_end(),
            });
        }
        if self.eat_kw("BETWEEN") {
            let low = self.other_operators()?;
            self.expect_kw("AND")?;
            let high = self.other_operators()?;
            return Ok(Expr {
                span: start..high.span.end,
                kind: ExprKind::Between {
                    expr: Box::new(left),
                    low: Box::new(low),
                    high: Box::new(high),
                    negated,
                },
            });
        }
        // PostgreSQL's ILIKE is LIKE without regard to case.
        let ilike = self.postgres() && self.kw_at(0, "ILIKE");
        if self.eat_kw("LIKE") || (ilike && self.eat_kw("ILIKE")) {
            let pattern = self.other_operators()?;
            if self.kw_at(0, "ESCAPE") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "LIKE ... ESCAPE"));
            }
            return Ok(Expr {
                span: start..pattern.span.end,
                kind: ExprKind::Like {
                    expr: Box::new(left),
                    pattern: Box::new(pattern),
                    negated,
                    case_insensitive: ilike,
                },
            });
        }
        if negated {
            return Err(self.unexpected());
        }
        Ok(left)
    }

    /// PostgreSQL's level of "any other operator" (`||`, `&`, `|`): below `+` and `-`,
    /// above comparisons, so `'task ' || n + 1` adds first. T-SQL and Teradata have no
    /// such level (their `&`, `|` and `^` sit with `+`).
    fn other_operators(&mut self) -> PResult<Expr> {
        self.chain(Self::other_links)
    }

    fn other_links(&mut self) -> PResult<Expr> {
        let mut left = self.additive()?;
        if !self.postgres() {
            return Ok(left);
        }
        loop {
            let op = if self.at_concat() {
                self.advance();
                BinaryOp::Concat
            } else if self.at(Tok::Amp) {
                BinaryOp::BitAnd
            } else if self.at(Tok::Pipe) {
                BinaryOp::BitOr
            } else {
                return Ok(left);
            };
            self.link("expression")?;
            self.advance();
            let right = self.additive()?;
            left = binary(op, left, right);
        }
    }

    /// `||`: two pipes with nothing between them.
    fn at_concat(&self) -> bool {
        match (self.tok_at(0), self.tok_at(1)) {
            (Some(a), Some(b)) => a.kind == Tok::Pipe && b.kind == Tok::Pipe && a.end == b.start,
            _ => false,
        }
    }

    pub(super) fn additive(&mut self) -> PResult<Expr> {
        self.chain(Self::additive_links)
    }

    fn additive_links(&mut self) -> PResult<Expr> {
        let mut left = self.multiplicative()?;
        loop {
            let ops: &[(Tok, BinaryOp)] = if self.postgres() {
                &[(Tok::Plus, BinaryOp::Add), (Tok::Minus, BinaryOp::Sub)]
            } else {
                &[
                    (Tok::Plus, BinaryOp::Add),
                    (Tok::Minus, BinaryOp::Sub),
                    (Tok::Amp, BinaryOp::BitAnd),
                    (Tok::Pipe, BinaryOp::BitOr),
                    (Tok::Caret, BinaryOp::BitXor),
                ]
            };
            let Some(op) = ops.iter().find(|&&(t, _)| self.at(t)).map(|&(_, op)| op) else {
                return Ok(left);
            };
            if !self.teradata() && self.at_concat() {
                let span = self.cur_span();
                let end = self.tok_at(1).map_or(span.end, |t| t.end);
                return Err(self.not_simulated(
                    span.start..end,
                    "|| (string concatenation; T-SQL joins text with +)",
                ));
            }
            if self.teradata()
                && matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor)
            {
                return Err(self.teradata_bitwise());
            }
            self.link("expression")?;
            self.advance();
            let right = self.multiplicative()?;
            left = binary(op, left, right);
        }
    }

    #[inline(never)]
    fn teradata_bitwise(&self) -> crate::ParseError {
        let span = self.cur_span();
        if self.kind_at(0) == Some(Tok::Pipe) && self.kind_at(1) == Some(Tok::Pipe) {
            let end = self.tok_at(1).map_or(span.end, |t| t.end);
            return self.not_simulated(span.start..end, "|| (string concatenation)");
        }
        let op = &self.src[span.clone()];
        self.tsql_syntax(&format!("bitwise operator '{op}'"), span)
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        self.chain(Self::multiplicative_links)
    }

    fn multiplicative_links(&mut self) -> PResult<Expr> {
        let mut left = self.power()?;
        loop {
            let ops = [
                (Tok::Star, BinaryOp::Mul),
                (Tok::Slash, BinaryOp::Div),
                (Tok::Percent, BinaryOp::Mod),
            ];
            let found = ops.into_iter().find(|&(t, _)| self.at(t)).map(|(_, op)| op);
            // Teradata's `a MOD b`; not listed as expected, `%` stands for it there.
            let teradata_mod = self.teradata() && self.kw_at(0, "MOD");
            let Some(op) = found.or(teradata_mod.then_some(BinaryOp::Mod)) else {
                return Ok(left);
            };
            self.link("expression")?;
            self.advance();
            let right = self.power()?;
            left = binary(op, left, right);
        }
    }

    /// PostgreSQL's `^`, exponentiation, binds tighter than `*` and left to right
    /// (`2 ^ 3 ^ 2` is 64). In T-SQL `^` is exclusive or, at the level of `+`.
    fn power(&mut self) -> PResult<Expr> {
        self.chain(Self::power_links)
    }

    fn power_links(&mut self) -> PResult<Expr> {
        let mut left = self.unary()?;
        while self.postgres() && self.at(Tok::Caret) {
            self.link("expression")?;
            self.advance();
            let right = self.unary()?;
            left = binary(BinaryOp::Pow, left, right);
        }
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let op = if self.at(Tok::Minus) {
            Some(UnaryOp::Neg)
        } else if self.at(Tok::Tilde) {
            self.tsql_only("bitwise operator '~'", self.cur_span())?;
            Some(UnaryOp::BitNot)
        } else if self.at(Tok::Plus) {
            None
        } else {
            let e = self.primary()?;
            return if self.postgres() {
                self.pg_casts(e)
            } else {
                Ok(e)
            };
        };
        let start = self.advance().start;
        self.enter("expression")?;
        let inner = self.unary()?;
        self.leave();
        let span = start..inner.span.end;
        let kind = match (op, inner.kind) {
            (None, kind) => kind,
            // Fold `-1` into a literal: simpler for the interpreter and for IDENTITY(-1, 1).
            (Some(UnaryOp::Neg), ExprKind::Literal(Literal::Int(n))) if n != i64::MIN => {
                ExprKind::Literal(Literal::Int(-n))
            }
            (Some(UnaryOp::Neg), ExprKind::Literal(Literal::Decimal(d))) if !d.starts_with('-') => {
                let neg = format!("-{d}");
                match neg.parse::<i64>() {
                    Ok(n) => ExprKind::Literal(Literal::Int(n)),
                    Err(_) => ExprKind::Literal(Literal::Decimal(neg)),
                }
            }
            (Some(op), kind) => ExprKind::Unary {
                op,
                expr: Box::new(Expr {
                    kind,
                    span: inner.span,
                }),
            },
        };
        Ok(Expr { kind, span })
    }

    pub(crate) fn primary(&mut self) -> PResult<Expr> {
        self.note("an expression");
        let Some(tok) = self.tok_at(0) else {
            return Err(self.unexpected());
        };
        let span = tok.start..tok.end;
        let text = self.text(tok);
        let literal = |kind| Expr {
            kind: ExprKind::Literal(kind),
            span: span.clone(),
        };
        match tok.kind {
            Tok::Int => {
                self.advance();
                Ok(literal(match text.parse::<i64>() {
                    Ok(n) => Literal::Int(n),
                    Err(_) => Literal::Decimal(text.to_string()),
                }))
            }
            Tok::Decimal => {
                self.advance();
                Ok(literal(Literal::Decimal(text.to_string())))
            }
            Tok::Str | Tok::NStr => {
                self.advance();
                Ok(literal(Literal::Str {
                    value: unquote_string(text).into(),
                    national: tok.kind == Tok::NStr,
                }))
            }
            Tok::Binary => Err(self.not_simulated(span, "binary literals")),
            Tok::Var => {
                let var = self.var_ident()?;
                self.use_var(&var, false)?;
                Ok(Expr {
                    kind: ExprKind::Var(text.to_string()),
                    span,
                })
            }
            Tok::Global => {
                self.advance();
                Ok(Expr {
                    kind: ExprKind::Global(text[2..].to_ascii_uppercase()),
                    span,
                })
            }
            Tok::SqlcmdVar => Err(self.not_simulated(
                span,
                &format!("sqlcmd variable {text} outside a string literal"),
            )),
            Tok::LParen => self.parenthesized(),
            Tok::Word => self.word_primary(),
            Tok::QuotedIdent => self.column_ref(),
            _ => Err(self.unexpected()),
        }
    }

    /// `(expr)` or a scalar subquery `(SELECT ...)`.
    fn parenthesized(&mut self) -> PResult<Expr> {
        let span = self.cur_span();
        self.advance();
        if self.select_at(0) || self.kw_at(0, "WITH") {
            return self.scalar_subquery(span.start);
        }
        let inner = self.expr()?;
        self.expect(Tok::RParen)?;
        // Parentheses only group; the span keeps them for error messages.
        Ok(Expr {
            kind: inner.kind,
            span: span.start..self.prev_end(),
        })
    }

    fn scalar_subquery(&mut self, start: usize) -> PResult<Expr> {
        let query = Box::new(self.select_query()?);
        self.expect(Tok::RParen)?;
        Ok(Expr {
            kind: ExprKind::Subquery(query),
            span: start..self.prev_end(),
        })
    }

    fn word_primary(&mut self) -> PResult<Expr> {
        let span = self.cur_span();
        if self.is_pg_var(0) {
            let name = self.pg_var()?;
            return Ok(Expr {
                kind: ExprKind::Var(name.value),
                span,
            });
        }
        let word = self.word_at(0).unwrap_or_default();
        let next_is_paren = self.kind_at(1) == Some(Tok::LParen);
        if self.teradata() {
            if let Some(e) = self.teradata_word_primary(&word, next_is_paren)? {
                return Ok(e);
            }
        }
        if self.postgres() {
            if let Some(e) = self.pg_word_primary(&word)? {
                return Ok(e);
            }
        }
        match word.as_str() {
            "NULL" => {
                self.advance();
                return Ok(Expr {
                    kind: ExprKind::Literal(Literal::Null),
                    span,
                });
            }
            "CASE" => return self.case_expr(),
            "CAST" if next_is_paren => return self.cast_expr(),
            "TRIM" if next_is_paren => return self.trim_expr(),
            "CONVERT" if next_is_paren => return self.convert_expr(),
            "TRY_CAST" | "TRY_CONVERT" if next_is_paren => {
                let cast = if word == "TRY_CAST" {
                    self.cast_expr()?
                } else {
                    self.convert_expr()?
                };
                let span = cast.span.clone();
                return Ok(plain_call(crate::TRY.into(), vec![cast], span));
            }
            "TRY_PARSE" | "PARSE" if next_is_paren => {
                return Err(self.not_simulated(span, &word));
            }
            "EXISTS" => {
                self.advance();
                self.expect(Tok::LParen)?;
                let query = self.select_query()?;
                self.expect(Tok::RParen)?;
                return Ok(Expr {
                    kind: ExprKind::Exists(Box::new(query)),
                    span: span.start..self.prev_end(),
                });
            }
            w if NILADIC.contains(&w) && !next_is_paren => {
                self.advance();
                let name = if self.postgres() {
                    super::postgres::pg_function_name(word)
                } else {
                    word
                };
                return Ok(niladic_call(name, span));
            }
            _ => {}
        }
        let reserved = keywords::is_reserved(&word, self.dialect);
        let function_word = if self.teradata() {
            TERADATA_FUNCTIONS.contains(&word.as_str())
        } else {
            RESERVED_EXPR_STARTS.contains(&word.as_str())
        };
        if next_is_paren && (!reserved || function_word) {
            return self.function_call();
        }
        if reserved {
            return Err(self.unexpected());
        }
        self.column_ref()
    }

    /// A type's word then a string (`DATE '2024-01-31'`): a CAST of the string. `None`
    /// when no string follows the word.
    pub(super) fn typed_literal(&mut self, ty: crate::ast::DataType) -> PResult<Option<Expr>> {
        if self.kind_at(1) != Some(Tok::Str) {
            return Ok(None);
        }
        let start = self.advance().start;
        let lit = self.primary()?;
        Ok(Some(Expr {
            span: start..lit.span.end,
            kind: ExprKind::Cast {
                expr: Box::new(lit),
                ty,
                style: None,
            },
        }))
    }

    /// Teradata's own primaries: typed literals (`DATE '2024-01-31'` is a CAST of the
    /// string), `CURRENT_DATE`, `CURRENT_TIME`; T-SQL's CONVERT is rejected. `None`: not one
    /// of these, parse as in T-SQL.
    #[inline(never)]
    fn teradata_word_primary(&mut self, word: &str, next_is_paren: bool) -> PResult<Option<Expr>> {
        let span = self.cur_span();
        let typed = match word {
            "DATE" => Some(crate::ast::DataType::Date),
            "TIME" => Some(crate::ast::DataType::Time(6)),
            "TIMESTAMP" => Some(crate::ast::DataType::DateTime2(6)),
            _ => None,
        };
        if let Some(ty) = typed {
            if let Some(e) = self.typed_literal(ty)? {
                return Ok(Some(e));
            }
        }
        if TERADATA_NILADIC.contains(&word) && !next_is_paren {
            self.advance();
            return Ok(Some(niladic_call(word.to_string(), span)));
        }
        if matches!(word, "CONVERT" | "ISNULL" | "TRY_CAST" | "TRY_CONVERT") && next_is_paren {
            return Err(self.tsql_syntax(word, span));
        }
        if word == "INTERVAL" {
            return self.interval(span).map(Some);
        }
        Ok(None)
    }

    /// Teradata's `INTERVAL '0.001' SECOND` (also MINUTE, HOUR, DAY): the function
    /// `INTERVAL` of the quantity's text and the unit. Year-month and multi-field
    /// intervals are not simulated.
    fn interval(&mut self, span: crate::ast::Span) -> PResult<Expr> {
        self.advance();
        if self.kind_at(0) != Some(Tok::Str) {
            return Err(self.not_simulated(span, "INTERVAL literals without a quoted quantity"));
        }
        let quantity = self.primary()?;
        let unit = self.word_at(0).unwrap_or_default();
        if !matches!(unit.as_str(), "SECOND" | "MINUTE" | "HOUR" | "DAY") {
            let end = self.cur_span().end;
            return Err(self.not_simulated(span.start..end, &format!("INTERVAL {unit}")));
        }
        let unit_span = self.advance();
        if self.kw_at(0, "TO") || self.kind_at(0) == Some(Tok::LParen) {
            let end = self.cur_span().end;
            return Err(self.not_simulated(span.start..end, "INTERVAL with a precision or TO"));
        }
        let unit = Expr {
            kind: ExprKind::Literal(crate::ast::Literal::Str {
                value: unit.into(),
                national: false,
            }),
            span: unit_span.clone(),
        };
        Ok(Expr {
            kind: ExprKind::Function {
                name: "INTERVAL".into(),
                args: vec![quantity, unit],
                star: false,
                distinct: false,
                over: None,
                within_group: Vec::new(),
            },
            span: span.start..unit_span.end,
        })
    }

    /// `a`, `t.a`, `dbo.t.a`; a multi-part name followed by `(` is a user-defined function.
    fn column_ref(&mut self) -> PResult<Expr> {
        let name: ObjectName = self.object_name()?;
        if self.kind_at(0) == Some(Tok::LParen) && name.parts.len() > 1 {
            return Err(self.not_simulated(name.span, "user-defined functions"));
        }
        Ok(Expr {
            span: name.span.clone(),
            kind: ExprKind::Column(name),
        })
    }

    /// `NAME(args)`, `COUNT(*)`, `COUNT(DISTINCT x)`, with an optional `OVER (...)`.
    fn function_call(&mut self) -> PResult<Expr> {
        let start = self.cur_start();
        let mut name = self.word_at(0).unwrap_or_default();
        let written = name.to_lowercase();
        if self.postgres() {
            name = super::postgres::pg_function_name(name);
            // An aggregate whose value is an array, which no column here holds: said
            // when it parses, as an aggregate over no rows would never call it.
            if name == "ARRAY_AGG" {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "array_agg() (arrays)"));
            }
        }
        self.advance();
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        let mut star = false;
        let mut distinct = false;
        if self.eat(Tok::Star) {
            star = true;
        } else if !self.at(Tok::RParen) {
            if self.eat_kw("DISTINCT") {
                distinct = true;
            } else {
                self.eat_kw("ALL");
            }
            args.push(self.expr()?);
            while self.eat(Tok::Comma) {
                args.push(self.expr()?);
            }
        }
        if name == "IIF" {
            if let Some(cond) = args.first() {
                self.check_condition(cond)?;
            }
        }
        let mut within_group = Vec::new();
        // PostgreSQL's `string_agg(v, ',' ORDER BY v)`: T-SQL's WITHIN GROUP, inside.
        if self.postgres() && self.at_kw("ORDER") && !args.is_empty() {
            let span = self.cur_span();
            if !name.eq_ignore_ascii_case("STRING_AGG") {
                return Err(self.not_simulated(span, &format!("ORDER BY inside {written}()")));
            }
            within_group = self.order_by()?;
        }
        self.expect(Tok::RParen)?;
        if self.kw_at(0, "WITHIN") && within_group.is_empty() {
            let span = self.cur_span();
            if !name.eq_ignore_ascii_case("STRING_AGG") {
                return Err(self.not_simulated(span, &format!("WITHIN GROUP of {name}")));
            }
            self.advance();
            self.expect_kw("GROUP")?;
            self.expect(Tok::LParen)?;
            within_group = self.order_by()?;
            self.expect(Tok::RParen)?;
        }
        if self.postgres() && self.kw_at(0, "FILTER") && self.kind_at(1) == Some(Tok::LParen) {
            if !super::postgres::is_pg_aggregate(&name) {
                return Err(crate::ParseError::new(
                    start..self.cur_span().end,
                    format!("FILTER specified, but {written} is not an aggregate function"),
                ));
            }
            self.aggregate_filter(&mut args, &mut star)?;
        }
        let over = if self.eat_kw("OVER") {
            Some(Box::new(self.window()?))
        } else {
            None
        };
        Ok(Expr {
            kind: ExprKind::Function {
                name,
                args,
                star,
                distinct,
                over,
                within_group,
            },
            span: start..self.prev_end(),
        })
    }

    /// PostgreSQL's `agg(...) FILTER (WHERE c)`: the aggregate of its first argument
    /// where `c` holds, NULL elsewhere (which every aggregate but `count(*)` skips, so
    /// `count(*)` counts a 1 where `c` holds).
    fn aggregate_filter(&mut self, args: &mut Vec<Expr>, star: &mut bool) -> PResult<()> {
        let span = self.advance();
        self.expect(Tok::LParen)?;
        self.expect_kw("WHERE")?;
        let cond = self.expr()?;
        self.expect(Tok::RParen)?;
        let when = |value: Expr| Expr {
            span: value.span.clone(),
            kind: ExprKind::Case {
                operand: None,
                branches: vec![(cond.clone(), value)],
                otherwise: None,
            },
        };
        if std::mem::take(star) {
            let one = Expr {
                kind: ExprKind::Literal(Literal::Int(1)),
                span: span.clone(),
            };
            args.push(when(one));
            return Ok(());
        }
        if let Some(first) = args.first_mut() {
            let value = std::mem::replace(
                first,
                Expr {
                    kind: ExprKind::Literal(Literal::Null),
                    span: span.clone(),
                },
            );
            *first = when(value);
        }
        Ok(())
    }

    fn window(&mut self) -> PResult<Window> {
        self.expect(Tok::LParen)?;
        let mut partition_by = Vec::new();
        if self.eat_kw("PARTITION") {
            self.expect_kw("BY")?;
            partition_by.push(self.expr()?);
            while self.eat(Tok::Comma) {
                partition_by.push(self.expr()?);
            }
        }
        let order_by = if self.at_kw("ORDER") {
            self.order_by()?
        } else {
            Vec::new()
        };
        if self.kw_at(0, "ROWS") || self.kw_at(0, "RANGE") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "window frames (ROWS/RANGE)"));
        }
        self.expect(Tok::RParen)?;
        Ok(Window {
            partition_by,
            order_by,
        })
    }

    fn cast_expr(&mut self) -> PResult<Expr> {
        let start = self.advance().start;
        self.expect(Tok::LParen)?;
        let inner = self.expr()?;
        self.expect_kw("AS")?;
        let ty = self.data_type(true)?;
        self.expect(Tok::RParen)?;
        Ok(Expr {
            kind: ExprKind::Cast {
                expr: Box::new(inner),
                ty,
                style: None,
            },
            span: start..self.prev_end(),
        })
    }

    /// `TRIM([LEADING | TRAILING | BOTH] [chars] FROM s)` (the standard's form, which
    /// every dialect here takes) as `LTRIM`, `RTRIM` or `TRIM` of `(s, chars)`; `TRIM(s
    /// [, chars])` as written.
    fn trim_expr(&mut self) -> PResult<Expr> {
        let start = self.advance().start;
        self.expect(Tok::LParen)?;
        let side = ["LEADING", "TRAILING", "BOTH"]
            .into_iter()
            .find(|w| self.kw_at(0, w));
        if side.is_some() {
            self.advance();
        }
        let name = match side {
            Some("LEADING") => "LTRIM",
            Some("TRAILING") => "RTRIM",
            _ => "TRIM",
        };
        let mut args = Vec::new();
        if self.eat_kw("FROM") {
            args.push(self.expr()?);
        } else {
            let first = self.expr()?;
            if self.eat_kw("FROM") {
                args.push(self.expr()?);
                args.push(first);
            } else if side.is_some() {
                self.expect_kw("FROM")?;
            } else {
                args.push(first);
                while self.eat(Tok::Comma) {
                    args.push(self.expr()?);
                }
            }
        }
        self.expect(Tok::RParen)?;
        Ok(plain_call(name.into(), args, start..self.prev_end()))
    }

    fn convert_expr(&mut self) -> PResult<Expr> {
        let start = self.advance().start;
        self.expect(Tok::LParen)?;
        let ty = self.data_type(true)?;
        self.expect(Tok::Comma)?;
        let inner = self.expr()?;
        let style = if self.eat(Tok::Comma) {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect(Tok::RParen)?;
        Ok(Expr {
            kind: ExprKind::Cast {
                expr: Box::new(inner),
                ty,
                style,
            },
            span: start..self.prev_end(),
        })
    }

    fn case_expr(&mut self) -> PResult<Expr> {
        let start = self.advance().start;
        let operand = if self.at_kw("WHEN") {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        let mut branches = Vec::new();
        while self.eat_kw("WHEN") {
            let when = if operand.is_none() {
                self.condition()?
            } else {
                self.expr()?
            };
            self.expect_kw("THEN")?;
            let then = self.expr()?;
            branches.push((when, then));
        }
        if branches.is_empty() {
            return Err(self.unexpected());
        }
        let otherwise = if self.eat_kw("ELSE") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_kw("END")?;
        Ok(Expr {
            kind: ExprKind::Case {
                operand,
                branches,
                otherwise,
            },
            span: start..self.prev_end(),
        })
    }
}

/// The span of a function call in a select item that `pick` accepts (by upper-cased
/// name, and whether it has OVER), if any; subqueries are not searched.
pub(super) fn call_in_item(item: &SelectItem, pick: &dyn Fn(&str, bool) -> bool) -> Option<Span> {
    match item {
        SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => call_in(expr, pick),
        SelectItem::Wildcard { .. } => None,
    }
}

/// As [`call_in_item`], in an expression.
pub(super) fn call_in(e: &Expr, pick: &dyn Fn(&str, bool) -> bool) -> Option<Span> {
    let children: Vec<&Expr> = match &e.kind {
        ExprKind::Function {
            name, args, over, ..
        } => {
            if pick(name, over.is_some()) {
                return Some(e.span.clone());
            }
            args.iter().collect()
        }
        ExprKind::Unary { expr, .. } | ExprKind::IsNull { expr, .. } => vec![expr],
        ExprKind::Binary { left, right, .. } => vec![left, right],
        ExprKind::InList { expr, list, .. } => std::iter::once(&**expr).chain(list).collect(),
        ExprKind::InSubquery { expr, .. } => vec![expr],
        ExprKind::Between {
            expr, low, high, ..
        } => vec![expr, low, high],
        ExprKind::Like { expr, pattern, .. } => vec![expr, pattern],
        ExprKind::Cast { expr, style, .. } => {
            std::iter::once(&**expr).chain(style.as_deref()).collect()
        }
        ExprKind::Case {
            operand,
            branches,
            otherwise,
        } => operand
            .as_deref()
            .into_iter()
            .chain(branches.iter().flat_map(|(w, t)| [w, t]))
            .chain(otherwise.as_deref())
            .collect(),
        ExprKind::Literal(_)
        | ExprKind::Var(_)
        | ExprKind::Global(_)
        | ExprKind::Column(_)
        | ExprKind::Default
        | ExprKind::Exists(_)
        | ExprKind::Subquery(_) => Vec::new(),
    };
    children.into_iter().find_map(|c| call_in(c, pick))
}

/// A function called without parentheses (`CURRENT_TIMESTAMP`): a call of no arguments.
pub(super) fn niladic_call(name: String, span: crate::ast::Span) -> Expr {
    plain_call(name, Vec::new(), span)
}

/// A call of `name` with `args`: no `*`, DISTINCT, window or WITHIN GROUP.
pub(super) fn plain_call(name: String, args: Vec<Expr>, span: crate::ast::Span) -> Expr {
    Expr {
        kind: ExprKind::Function {
            name,
            args,
            star: false,
            distinct: false,
            over: None,
            within_group: Vec::new(),
        },
        span,
    }
}

/// The first part of a T-SQL search condition that is a value, not a predicate: the
/// condition itself (`WHERE id`), or an operand of its AND, OR or NOT (`a = 1 AND b`).
fn not_a_predicate(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::And | BinaryOp::Or,
            left,
            right,
        } => not_a_predicate(left).or_else(|| not_a_predicate(right)),
        ExprKind::Unary {
            op: UnaryOp::Not,
            expr,
        } => not_a_predicate(expr),
        ExprKind::Binary { op, .. }
            if op.is_comparison()
                || matches!(op, BinaryOp::IsDistinct | BinaryOp::IsNotDistinct) =>
        {
            None
        }
        ExprKind::IsNull { .. }
        | ExprKind::InList { .. }
        | ExprKind::InSubquery { .. }
        | ExprKind::Between { .. }
        | ExprKind::Like { .. }
        | ExprKind::Exists(_) => None,
        _ => Some(e),
    }
}
