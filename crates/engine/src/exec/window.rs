//! Window functions: ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD and the aggregates with
//! `OVER ([PARTITION BY ...] [ORDER BY ...])`, computed over a query's rows after WHERE,
//! GROUP BY and HAVING and before DISTINCT, ORDER BY and TOP. While a query evaluates a
//! row's select list and ORDER BY, `World::windows` holds the row's calls and values.

use std::cmp::Ordering;

use sql::ast::{Expr, ExprKind};

use crate::error::SqlError;
use crate::exec::expr::{fold, RowCtx, Scope};
use crate::exec::{Exec, Interrupt};
use crate::syntax::is_aggregate;
use crate::value::{sort_cmp_nulls, Value};

/// A query's rows as windows see them: each row with its group's rows (aggregate queries).
pub(crate) type Rows = [(Vec<Value>, Vec<Vec<Value>>)];

impl Exec<'_> {
    /// The value of each call of `calls` on each row: `out[row][call]`.
    pub(crate) fn window_values(
        &mut self,
        i: usize,
        calls: &[&Expr],
        scope: &Scope,
        rows: &Rows,
        aggregate: bool,
        outer: Option<&RowCtx>,
    ) -> Result<Vec<Vec<Value>>, Interrupt> {
        let mut out = vec![Vec::with_capacity(calls.len()); rows.len()];
        for call in calls {
            let values = self.window_call(i, call, scope, rows, aggregate, outer)?;
            for (o, v) in out.iter_mut().zip(values) {
                o.push(v);
            }
        }
        Ok(out)
    }

    fn window_call(
        &mut self,
        i: usize,
        call: &Expr,
        scope: &Scope,
        rows: &Rows,
        aggregate: bool,
        outer: Option<&RowCtx>,
    ) -> Result<Vec<Value>, Interrupt> {
        let ExprKind::Function {
            name,
            args,
            star,
            distinct,
            over: Some(w),
            ..
        } = &call.kind
        else {
            return Ok(vec![Value::Null; rows.len()]);
        };
        let ranking = matches!(name.as_str(), "ROW_NUMBER" | "RANK" | "DENSE_RANK");
        // LAG and LEAD: another row's value, `offset` rows before or after in the window.
        let shifted = matches!(name.as_str(), "LAG" | "LEAD");
        if !(ranking || shifted || is_aggregate(name) && name != "STRING_AGG") {
            return Err(SqlError::not_simulated(&format!("window function {name}")).into());
        }
        if shifted && !(1..=3).contains(&args.len()) {
            return Err(SqlError::generic(
                174,
                15,
                format!(
                    "The {} function requires 1 to 3 arguments.",
                    name.to_lowercase()
                ),
            )
            .into());
        }
        if (ranking || shifted) && w.order_by.is_empty() {
            return Err(SqlError::generic(
                4112,
                15,
                format!("The function '{name}' must have an OVER clause with ORDER BY."),
            )
            .into());
        }
        // Each row's partition key, order key and (for aggregates) argument.
        let mut keyed: Vec<(Vec<Value>, Vec<Value>, Value)> = Vec::with_capacity(rows.len());
        // LAG's and LEAD's offset (NULL: the value is NULL) and default, per row.
        let mut shifts: Vec<(Option<i64>, Value)> = Vec::new();
        for (row, members) in rows {
            let ctx = RowCtx {
                scope,
                row,
                outer,
                group: aggregate.then_some(members.as_slice()),
            };
            let mut part = Vec::with_capacity(w.partition_by.len());
            for e in &w.partition_by {
                part.push(self.eval(i, e, Some(&ctx))?);
            }
            let mut ord = Vec::with_capacity(w.order_by.len());
            for o in &w.order_by {
                ord.push(self.eval(i, &o.expr, Some(&ctx))?);
            }
            let arg = match args.first() {
                Some(a) if !ranking && !star => self.eval(i, a, Some(&ctx))?,
                _ => Value::Null,
            };
            if shifted {
                let offset = match args.get(1) {
                    Some(e) => self.eval(i, e, Some(&ctx))?.as_i64(),
                    None => Some(1),
                };
                let default = match args.get(2) {
                    Some(e) => self.eval(i, e, Some(&ctx))?,
                    None => Value::Null,
                };
                shifts.push((offset, default));
            }
            keyed.push((part, ord, arg));
        }
        let desc: Vec<bool> = w.order_by.iter().map(|o| o.desc).collect();
        let high = nulls_high(&w.order_by, self.rules.nulls_sort_high());
        let by_order = |a: &[Value], b: &[Value]| cmp_keys(a, b, &desc, high);
        // Partitions in key order, rows by the window's order within each (stable).
        let mut idx: Vec<usize> = (0..rows.len()).collect();
        idx.sort_by(|&a, &b| {
            cmp_keys(&keyed[a].0, &keyed[b].0, &[], 0)
                .then_with(|| by_order(&keyed[a].1, &keyed[b].1))
        });
        let mut values = vec![Value::Null; rows.len()];
        let mut start = 0;
        while start < idx.len() {
            let part = &keyed[idx[start]].0;
            let end = start
                + idx[start..]
                    .iter()
                    .take_while(|&&r| cmp_keys(&keyed[r].0, part, &[], 0) == Ordering::Equal)
                    .count();
            let members = &idx[start..end];
            let mut rank = 0;
            let mut dense = 0;
            let mut peers_end = 0;
            let mut frame_value = Value::Null;
            for (pos, &r) in members.iter().enumerate() {
                let new_peer =
                    pos == 0 || by_order(&keyed[members[pos - 1]].1, &keyed[r].1).is_ne();
                if new_peer {
                    rank = pos + 1;
                    dense += 1;
                }
                values[r] = match name.as_str() {
                    "ROW_NUMBER" => Value::Int(pos as i64 + 1),
                    "RANK" => Value::Int(rank as i64),
                    "DENSE_RANK" => Value::Int(dense),
                    "LAG" | "LEAD" => {
                        let (offset, default) = &shifts[r];
                        match offset {
                            None => Value::Null,
                            Some(k) => {
                                let k = if name == "LAG" {
                                    k.checked_neg()
                                } else {
                                    Some(*k)
                                };
                                let at = k.and_then(|k| (pos as i64).checked_add(k));
                                match at
                                    .and_then(|a| usize::try_from(a).ok())
                                    .and_then(|a| members.get(a))
                                {
                                    Some(&x) => keyed[x].2.clone(),
                                    None => default.clone(),
                                }
                            }
                        }
                    }
                    _ => {
                        // The default frame: the whole partition without ORDER BY, else
                        // up to the current row's last peer (RANGE ... CURRENT ROW).
                        if pos >= peers_end {
                            peers_end = if w.order_by.is_empty() {
                                members.len()
                            } else {
                                pos + members[pos..]
                                    .iter()
                                    .take_while(|&&x| by_order(&keyed[x].1, &keyed[r].1).is_eq())
                                    .count()
                            };
                            let frame = &members[..peers_end];
                            frame_value = if *star {
                                Value::Int(frame.len() as i64)
                            } else {
                                let vals = frame
                                    .iter()
                                    .map(|&x| keyed[x].2.clone())
                                    .filter(|v| !v.is_null())
                                    .collect();
                                fold(name, vals, *distinct, self.rules.truncating_integers())
                            };
                        }
                        frame_value.clone()
                    }
                };
            }
            start = end;
        }
        Ok(values)
    }
}

/// Compares sort keys, each ascending unless `desc` says otherwise.
/// For each ORDER BY item, whether NULL sorts after every value before DESC reverses
/// it: the dialect's order (`dialect_high`), or the item's NULLS FIRST or LAST. Bit `k`
/// for item `k` (a mask, not a vector: every sorting query builds one); items past the
/// 64th take the dialect's order.
pub(crate) fn nulls_high(items: &[sql::ast::OrderItem], dialect_high: bool) -> u64 {
    let mut mask = if dialect_high { u64::MAX } else { 0 };
    for (k, o) in items.iter().enumerate().take(64) {
        if o.nulls_first.map_or(dialect_high, |first| first == o.desc) {
            mask |= 1 << k;
        } else {
            mask &= !(1 << k);
        }
    }
    mask
}

pub(crate) fn cmp_keys(a: &[Value], b: &[Value], desc: &[bool], nulls_high: u64) -> Ordering {
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let high = nulls_high >> k.min(63) & 1 != 0;
        let o = sort_cmp_nulls(x, y, high);
        let o = if desc.get(k).copied().unwrap_or(false) {
            o.reverse()
        } else {
            o
        };
        if o.is_ne() {
            return o;
        }
    }
    Ordering::Equal
}

impl Exec<'_> {
    /// Runs `f` with a row's window calls standing for `values` in expressions.
    pub(crate) fn with_windows<T>(
        &mut self,
        calls: &[&Expr],
        values: Option<&[Value]>,
        f: impl FnOnce(&mut Self) -> Result<T, Interrupt>,
    ) -> Result<T, Interrupt> {
        let Some(values) = values else {
            return f(self);
        };
        let mark = self.w.windows.len();
        let row = calls
            .iter()
            .map(|c| (*c).clone())
            .zip(values.iter().cloned());
        self.w.windows.extend(row);
        let r = f(self);
        self.w.windows.truncate(mark);
        r
    }
}
