//! SELECT, INSERT, UPDATE and DELETE: access paths, locking scans (READPAST, UPDLOCK,
//! isolation levels, row versions), logical reads, OUTPUT and triggers.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::rc::Rc;

use sql::ast::{
    BinaryOp, Cte, DataType, Delete, DmlEvent, Expr, ExprKind, HintKind, InsertSource,
    IsolationLevel, JoinKind, ObjectName, OrderItem, Output, Select, SelectItem, SetOp,
    TableFactor, TableHint, TableRef, Update,
};

use crate::cost::CostKind;
use crate::error::{Count, SqlError};
use crate::event::{Access, Event};
use crate::exec::expr::{RowCtx, Scope};
use crate::exec::foreign_keys;
use crate::exec::stmt::{display_name, object_key};
use crate::exec::window::{cmp_keys, nulls_high};
use crate::exec::{Exec, Flow, Interrupt};
use crate::outcome::ResultSet;
use crate::state::locks::{LockMode, Resource};
use crate::state::pages;
use crate::state::session::{MergePending, TriggerRows, Undo};
use crate::state::storage::{Column, RowId, Table};
use crate::syntax::{canonical, column_refs, conjuncts, has_aggregate, has_subquery, window_calls};
use crate::value::{compare, convert, to_literal, Value};

mod joined_locks;
mod upsert;

/// Where an UPDATE/DELETE writes: table, binding name, hints, predicate, order, TOP.
type DmlTarget<'a> = (
    u32,
    String,
    Vec<TableHint>,
    // Borrowed from the statement unless a CTE's WHERE is joined to it: not copied per run.
    Option<Cow<'a, Expr>>,
    Vec<OrderItem>,
    Option<Cow<'a, sql::ast::Top>>,
);
/// An updatable CTE's TOP, or its `OFFSET 0 ROWS FETCH NEXT n ROWS ONLY`, which means
/// the same.
fn cte_top(q: &Select) -> Result<Option<Cow<'_, sql::ast::Top>>, Interrupt> {
    match &q.offset {
        None => Ok(q.top.as_ref().map(Cow::Borrowed)),
        Some(sql::ast::Offset {
            skip:
                Expr {
                    kind: ExprKind::Literal(sql::ast::Literal::Int(0)),
                    ..
                },
            fetch: Some(f),
            span,
        }) => Ok(Some(Cow::Owned(sql::ast::Top {
            count: f.clone(),
            percent: false,
            with_ties: false,
            span: span.clone(),
        }))),
        Some(_) => {
            Err(SqlError::not_simulated("OFFSET in a CTE that UPDATE or DELETE changes").into())
        }
    }
}

/// The rows an access path yields, in its order: listed, or read from a nonclustered
/// index's entries one at a time (so a TOP scan stops after the entries it needs).
enum Candidates {
    Listed(std::vec::IntoIter<RowId>),
    Index {
        /// Position of the index in its table's `indexes`.
        index: usize,
        /// Bounds on the index's leading column (an equality, or a range).
        seek: Option<Rc<[(BinaryOp, Value)]>>,
        /// The last entry read.
        after: Option<crate::state::index::EntryKey>,
    },
}

impl Candidates {
    fn next(&mut self, t: &Table) -> Option<RowId> {
        match self {
            Candidates::Listed(slots) => slots.next(),
            Candidates::Index { index, seek, after } => {
                let entries = t.entries(*index);
                loop {
                    let (key, slot) = entries.next_after(after.as_ref())?;
                    *after = Some(key.clone());
                    if seek.as_ref().is_none_or(|b| within(key.lead(), b)) {
                        return Some(slot);
                    }
                }
            }
        }
    }
}

/// A scan's scope and the rows it kept, with their slots.
type ScanRows = (Scope, Vec<(RowId, Vec<Value>)>);
/// A projected row, its source row, and its group's rows.
type Projected = (Vec<Value>, Vec<Value>, Vec<Vec<Value>>);

/// The table that stands for the external receiver (SCENARIOS.md I2): a row there is a call.
pub const EXTERNAL_SYSTEM: &str = "external_system";

/// Rows produced by a query, with their column names.
#[derive(Clone, Debug)]
pub(crate) struct QueryOut {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    Read,
    Update,
    Delete,
}

/// How a table reference reads and locks rows.
#[derive(Clone, Debug)]
struct Locking {
    /// Mode taken on each row read (None: no row locks).
    row: Option<LockMode>,
    /// A table-level lock instead of row locks (TABLOCK, TABLOCKX).
    table: Option<LockMode>,
    /// Row locks kept to the end of the transaction (else dropped after the row / statement).
    hold: bool,
    /// SERIALIZABLE (HOLDLOCK): every key the scan reads stays locked, qualifying or not,
    /// as SQL Server's key-range locks keep the range it read.
    range: bool,
    readpast: bool,
    /// Versioned read at this commit sequence (SNAPSHOT, READ_COMMITTED_SNAPSHOT).
    snapshot: Option<u64>,
    /// READ UNCOMMITTED / NOLOCK: the newest data, committed or not, without locks.
    dirty: bool,
}

/// A base table reference being scanned.
struct ScanSpec<'a> {
    table: u32,
    binding: String,
    hints: &'a [TableHint],
    purpose: Purpose,
    pred: Option<&'a Expr>,
    order: &'a [OrderItem],
    limit: Option<usize>,
    /// A joined write's target, read without locks (they come at the write): READ
    /// COMMITTED reads its newest committed versions, which a run again after a wait
    /// for one of its rows then re-checks, rather than the statement's snapshot.
    latest: bool,
    /// The one-table SELECT the scan reads for, whose other columns (items, grouping,
    /// ORDER BY) tell whether a nonclustered index covers it; None: not known (each row
    /// found through the index is then looked up).
    select: Option<&'a sql::ast::Select>,
    /// An UPDATE's assignments to key columns (a dialect with a key-update lock): each
    /// row the scan locks is locked in that mode when they change its key, as the server
    /// decides the tuple lock from the new row before it locks.
    key_sets: &'a [(usize, &'a Expr)],
}

/// The key past a clustered index's last: what a SERIALIZABLE scan to the end locks
/// and an INSERT tests.
pub(crate) fn end_of_index(table: u32) -> Resource {
    Resource::Key {
        table,
        index: 1,
        key: Rc::from(crate::state::storage::END_OF_INDEX),
    }
}

/// An access path: how, and the candidate rows in the order it yields them.
struct AccessPath {
    access: Access,
    candidates: Candidates,
    /// A nonclustered index's depth (an index seek).
    depth: u32,
    /// How many times a clustered seek descends the index: once per key it looks for.
    seeks: u64,
    /// Keys a clustered seek looked for that no row has.
    missing: Vec<crate::state::storage::OrdKey>,
    /// The extent of a clustered range seek.
    range: Option<KeyRange>,
    /// The nonclustered index an index seek reads.
    index: Option<usize>,
    /// The predicate's conjuncts in canonical text, where a filtered index asked for them.
    canon: Option<Vec<String>>,
}

impl AccessPath {
    fn new(access: Access, candidates: Candidates) -> Self {
        AccessPath {
            access,
            candidates,
            depth: 0,
            seeks: 1,
            missing: Vec::new(),
            range: None,
            index: None,
            canon: None,
        }
    }
}

/// Where a clustered range seek (`id > 2`) reads: positions in clustered order of its
/// first key and of its last, the first key past the range included (the seek reads
/// it to learn that the range has ended).
struct KeyRange {
    first: usize,
    last: usize,
    /// The first key past the range: a SERIALIZABLE seek locks it and the range below
    /// it, so no key is inserted between the range's last key and it.
    next: Option<RowId>,
}

/// The seeks of an IN on a clustered key: how many, the rows found, and the keys no row
/// has.
type SeekEach = (u64, Vec<RowId>, Vec<crate::state::storage::OrdKey>);

/// Where a key lies against a range's bounds.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Below,
    Inside,
    Above,
}

/// Where a factor sits in FROM: the comma-separated item, and the join within it (`None`
/// for the item's first factor).
type FactorAt = (usize, Option<usize>);

/// The hidden column that carries an UPDATE/DELETE target row's slot through a join (no
/// SQL can name it).
const SLOT_COLUMN: &str = "\u{1}slot";

/// The target of `UPDATE/DELETE ... FROM ... JOIN` among FROM's factors, or a table a
/// row-lock clause names, and how to read it.
#[derive(Clone)]
struct DmlJoin {
    at: FactorAt,
    table: u32,
    binding: String,
    hints: Vec<TableHint>,
    purpose: Purpose,
    /// The conjuncts of WHERE and of inner joins' ON that name only the target: its seek.
    pred: Option<Expr>,
}

/// A MERGE and its target table, binding name and hints.
#[derive(Clone, Copy)]
struct MergeTarget<'a> {
    m: &'a sql::ast::Merge,
    tid: u32,
    bind: &'a str,
    hints: &'a [TableHint],
}

/// What an UPDATE or DELETE is, for locating its rows.
struct DmlSpec<'a> {
    target: &'a TableFactor,
    ctes: &'a [Cte],
    top: Option<&'a sql::ast::Top>,
    from: &'a [TableRef],
    where_clause: Option<&'a Expr>,
    output: Option<&'a Output>,
    event: DmlEvent,
    /// An UPDATE's SET list (empty for a DELETE).
    assignments: &'a [sql::ast::Assignment],
}

/// The rows an UPDATE or DELETE changes: the table, the hints in force on it, the scope
/// of its expressions and, per row, its slot, its data and (with FROM) the joined row its
/// expressions see.
type Located = (u32, Vec<TableHint>, Scope, Vec<LocatedRow>);
/// A row an UPDATE or DELETE changes: its slot, its data, and (with FROM) the joined row.
type LocatedRow = (RowId, Vec<Value>, Option<Vec<Value>>);
/// The right side of an APPLY: its scope and its rows for each left row.
type PerLeftRows = (Scope, Vec<Vec<Vec<Value>>>);

/// How many of a binding's columns `*` shows: all but a hidden slot column.
fn visible(b: &crate::exec::expr::Binding) -> usize {
    let n = b.columns.len();
    n - usize::from(b.columns.last().is_some_and(|c| c == SLOT_COLUMN))
}

/// A row's values as the server's DETAIL lists them: `3, c, bad, t, null`.
fn row_text(row: &[Value]) -> String {
    let values: Vec<String> = row
        .iter()
        .map(|v| {
            if v.is_null() {
                "null".to_string()
            } else {
                v.output_text()
            }
        })
        .collect();
    values.join(", ")
}

fn listed(slots: Vec<RowId>) -> Candidates {
    Candidates::Listed(slots.into_iter())
}

fn has_hint(hints: &[TableHint], k: HintKind) -> bool {
    hints.iter().any(|h| h.kind == k)
}

/// Items of a SELECT may only assign when all of them assign.
fn assigns(items: &[SelectItem]) -> bool {
    items.iter().any(|i| matches!(i, SelectItem::Assign { .. }))
}

/// `INTO STRICT`: the query must give exactly one row.
fn is_strict(items: &[SelectItem]) -> bool {
    items
        .iter()
        .any(|i| matches!(i, SelectItem::Assign { strict: true, .. }))
}

impl Exec<'_> {
    // -----------------------------------------------------------------------------------
    // SELECT

    pub(crate) fn exec_select(&mut self, i: usize, s: &Select) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        if let Some(into) = &s.into {
            return self.select_into(i, s, into);
        }
        let out = self.run_select(i, s, None)?;
        let n = out.rows.len() as u64;
        // @@ROWCOUNT: the rows the query read or returned, assigned or not.
        self.rows_affected(i, n);
        if assigns(&s.items) {
            // SELECT @v = ...: the last row's values stay; no rows leave the server. Where
            // the dialect's INTO takes the first row, no row sets NULLs.
            let first = self.rules.assigns_first_row_or_null();
            let names: Vec<String> = s
                .items
                .iter()
                .filter_map(|it| match it {
                    SelectItem::Assign { var, .. } => Some(var.value.clone()),
                    _ => None,
                })
                .collect();
            if first && is_strict(&s.items) {
                match n {
                    0 => return Err(SqlError::strict_no_rows().into()),
                    1 => {}
                    _ => return Err(SqlError::too_many_rows().into()),
                }
            }
            let row = if first {
                Some(
                    out.rows
                        .first()
                        .cloned()
                        .unwrap_or_else(|| vec![Value::Null; names.len()]),
                )
            } else {
                out.rows.last().cloned()
            };
            if let Some(row) = row {
                for (name, v) in names.iter().zip(row) {
                    self.assign_var(i, name, v)?;
                }
            }
        } else {
            self.add_result(
                i,
                ResultSet {
                    columns: out.columns,
                    rows: out.rows,
                },
            );
        }
        Ok(Flow::Done {
            kind: CostKind::Select,
            rows: Some(n),
            reads: self.w.query_reads,
            written: 0,
        })
    }

    /// `SELECT ... INTO t`: a new heap table with the result's columns, typed by their
    /// values (text as varchar(max)), holding the result's rows.
    fn select_into(&mut self, i: usize, s: &Select, into: &ObjectName) -> Result<Flow, Interrupt> {
        let mut query = s.clone();
        query.into = None;
        let out = self.run_select(i, &query, None)?;
        let table_name = into.name().value.clone();
        let mut columns: Vec<Column> = Vec::with_capacity(out.columns.len());
        for (k, name) in out.columns.iter().enumerate() {
            if name.is_empty() {
                return Err(SqlError::generic(1038, 15, "An object or column name is missing or empty. For SELECT INTO statements, verify each column has a name. For other statements, look for empty alias names. Aliases defined as \"\" or [] are not allowed. Change the alias to a valid name.").into());
            }
            if columns.iter().any(|c| c.name.eq_ignore_ascii_case(name)) {
                return Err(SqlError::generic(2705, 16, format!("Column names in each table must be unique. Column name '{name}' in table '{table_name}' is specified more than once.")).into());
            }
            let values = || out.rows.iter().map(|r| &r[k]);
            let ty = match values().find(|v| !v.is_null()) {
                Some(Value::Decimal(_)) => DataType::Float,
                Some(Value::Text(_)) => DataType::VarChar(sql::ast::Len::Max),
                Some(Value::DateTime(..)) => DataType::DateTime2(7),
                _ if values().all(|v| v.as_i64().is_none_or(|n| i32::try_from(n).is_ok())) => {
                    DataType::Int
                }
                _ => DataType::BigInt,
            };
            columns.push(Column {
                name: name.clone(),
                ty,
                nullable: true,
                default: None,
            });
        }
        let key = self.w.db.key(&object_key(into));
        if self.w.db.names.contains_key(&key) {
            return Err(SqlError::object_exists(&table_name).into());
        }
        let tid = self.w.db.tables.len() as u32;
        let mut table = Table::new(table_name.clone(), columns.clone(), Vec::new(), false);
        if self.rules.heap_tables() {
            table.heap = Some(Default::default());
        }
        table.nulls_high = self.rules.nulls_sort_high();
        self.w.db.names.insert(key.clone(), tid);
        self.w.db.tables.push(table);
        self.created_table(i, key);
        let n = out.rows.len() as u64;
        for r in out.rows {
            let mut row = Vec::with_capacity(r.len());
            for (v, c) in r.iter().zip(&columns) {
                row.push(self.convert(v, &c.ty, Some((&table_name, &c.name)))?);
            }
            self.insert_row(i, tid, row)?;
        }
        Ok(self.wrote(i, CostKind::Insert, n))
    }

    /// A query's row count: @@ROWCOUNT, and whether it found a row (FOUND, where the
    /// dialect has it: elsewhere it stays false, and states differ in nothing unseen).
    fn rows_affected(&mut self, i: usize, n: u64) {
        self.w.sessions[i].rowcount = n as i64;
        if self.rules.has_found() {
            self.frame_mut(i).found = n > 0;
        }
    }

    /// The end of a statement that wrote `n` rows: @@ROWCOUNT and its cost.
    fn wrote(&mut self, i: usize, kind: CostKind, n: u64) -> Flow {
        self.rows_affected(i, n);
        Flow::Done {
            kind,
            rows: Some(n),
            reads: self.w.query_reads,
            written: n,
        }
    }

    pub(crate) fn subquery(
        &mut self,
        i: usize,
        s: &Select,
        outer: Option<&RowCtx>,
    ) -> Result<QueryOut, Interrupt> {
        self.run_select(i, s, outer)
    }

    /// A subquery in an expression. Where the dialect says so, one that reads no column
    /// of the queries around it runs once per statement (an InitPlan), so its locks and
    /// skips happen once however often the predicate is checked.
    pub(crate) fn subquery_in_expr(
        &mut self,
        i: usize,
        s: &Select,
        outer: Option<&RowCtx>,
    ) -> Result<QueryOut, Interrupt> {
        if !self.rules.subquery_once() {
            return self.subquery(i, s, outer);
        }
        let key = s as *const Select as usize;
        if let Some((_, columns, rows)) = self.w.subquery_results.iter().find(|(k, ..)| *k == key) {
            return Ok(QueryOut {
                columns: columns.clone(),
                rows: rows.clone(),
            });
        }
        let mut scopes = Vec::new();
        let mut cur = outer;
        while let Some(c) = cur {
            scopes.push(c.scope as *const Scope as usize);
            cur = c.outer;
        }
        let saved = std::mem::replace(&mut self.w.outer_scopes, scopes);
        let before = self.w.outer_refs;
        let reads_before = self.w.query_reads;
        let out = self.subquery(i, s, outer);
        self.w.outer_scopes = saved;
        let out = out?;
        if self.w.outer_refs == before {
            self.w.init_plan_reads += self.w.query_reads.saturating_sub(reads_before);
            self.w
                .subquery_results
                .push((key, out.columns.clone(), out.rows.clone()));
        }
        Ok(out)
    }

    pub(crate) fn run_select(
        &mut self,
        i: usize,
        s: &Select,
        outer: Option<&RowCtx>,
    ) -> Result<QueryOut, Interrupt> {
        if self.w.query_depth >= MAX_QUERY_DEPTH {
            return Err(SqlError::nested_too_deeply().into());
        }
        self.w.query_depth += 1;
        let r = self.run_select_nested(i, s, outer);
        self.w.query_depth -= 1;
        r
    }

    fn run_select_nested(
        &mut self,
        i: usize,
        s: &Select,
        outer: Option<&RowCtx>,
    ) -> Result<QueryOut, Interrupt> {
        if s.into.is_some() {
            return Err(SqlError::not_simulated("SELECT INTO inside another query").into());
        }
        let pushed = s.ctes.len();
        self.push_ctes(i, &s.ctes)?;
        // A compound query's ORDER BY (written after its last operand, kept on its first)
        // orders the whole result, once the operands are combined.
        let compound_order = s.set_op.is_some() && !s.order_by.is_empty();
        // So does its LIMIT where the dialect writes one after the operands.
        let compound_limit =
            s.set_op.is_some() && s.top.is_some() && self.rules.limit_after_set_operators();
        // And its OFFSET, written after the ORDER BY.
        let compound_offset = s.set_op.is_some() && s.offset.is_some();
        let first = if compound_order || compound_limit || compound_offset {
            Cow::Owned(Select {
                order_by: Vec::new(),
                offset: None,
                top: if compound_limit { None } else { s.top.clone() },
                ..s.clone()
            })
        } else {
            Cow::Borrowed(s)
        };
        let r = self.run_select_inner(i, &first, outer);
        self.pop_ctes(pushed);
        let mut out = r?;
        if let Some((op, next)) = &s.set_op {
            let right = self.run_select(i, next, outer)?;
            if right.columns.len() != out.columns.len() {
                let word = match op {
                    SetOp::UnionAll | SetOp::Union => "UNION",
                    SetOp::Except => "EXCEPT",
                    SetOp::Intersect => "INTERSECT",
                };
                return Err(SqlError::set_op_columns(word).into());
            }
            out.rows = match op {
                SetOp::UnionAll => {
                    let mut rows = out.rows;
                    rows.extend(right.rows);
                    rows
                }
                SetOp::Union => dedup(out.rows.into_iter().chain(right.rows).collect()),
                SetOp::Except => dedup(out.rows)
                    .into_iter()
                    .filter(|r| !right.rows.iter().any(|x| rows_equal(r, x)))
                    .collect(),
                SetOp::Intersect => dedup(out.rows)
                    .into_iter()
                    .filter(|r| right.rows.iter().any(|x| rows_equal(r, x)))
                    .collect(),
            };
        }
        if compound_order {
            self.order_compound(&s.order_by, &mut out)?;
        }
        let mut take = None;
        if let (true, Some(top)) = (compound_limit, &s.top) {
            take = self.row_count(i, &top.count, outer, Count::Top)?;
        }
        if let (true, Some(o)) = (compound_offset, &s.offset) {
            let skip = self
                .row_count(i, &o.skip, outer, Count::Offset)?
                .unwrap_or(0);
            if let Some(f) = &o.fetch {
                take = self.row_count(i, f, outer, Count::Fetch)?;
            }
            out.rows.drain(..skip.min(out.rows.len()));
        }
        if let Some(n) = take {
            out.rows.truncate(n);
        }
        Ok(out)
    }

    /// Orders a compound query's rows by its ORDER BY, whose items name output columns
    /// by position (`ORDER BY 2`) or by name.
    fn order_compound(&self, order: &[OrderItem], out: &mut QueryOut) -> Result<(), Interrupt> {
        let mut positions = Vec::with_capacity(order.len());
        for o in order {
            let p = match &o.expr.kind {
                ExprKind::Literal(sql::ast::Literal::Int(n)) if *n >= 1 => Some(*n as usize - 1),
                ExprKind::Column(n) => out
                    .columns
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(&n.name().value)),
                _ => None,
            };
            match p.filter(|&p| p < out.columns.len()) {
                Some(p) => positions.push(p),
                None => {
                    return Err(SqlError::generic(
                        104,
                        16,
                        "ORDER BY items must appear in the select list if the statement contains a UNION, INTERSECT or EXCEPT operator.",
                    )
                    .into())
                }
            }
        }
        let desc: Vec<bool> = order.iter().map(|o| o.desc).collect();
        let high = nulls_high(order, self.rules.nulls_sort_high());
        let mut keyed: Vec<(Vec<Value>, Vec<Value>)> = std::mem::take(&mut out.rows)
            .into_iter()
            .map(|r| (positions.iter().map(|&p| r[p].clone()).collect(), r))
            .collect();
        keyed.sort_by(|a, b| cmp_keys(&a.0, &b.0, &desc, high));
        out.rows = keyed.into_iter().map(|(_, r)| r).collect();
        Ok(())
    }

    /// A grouped query's select list and HAVING name columns only inside aggregates or
    /// as grouped (8120, 8121); the server checks before reading a row. Where the dialect
    /// knows functional dependencies, grouping by a table's primary key groups all of its
    /// columns.
    fn check_grouped(&self, s: &Select, scope: &Scope, group_by: &[&Expr]) -> Result<(), SqlError> {
        let canon: Vec<String> = group_by
            .iter()
            .map(|g| crate::syntax::canonical(g))
            .collect();
        let grouped_at: Vec<usize> = group_by
            .iter()
            .filter_map(|g| match &g.kind {
                ExprKind::Column(n) => scope.resolve(n).ok().flatten(),
                _ => None,
            })
            .collect();
        let binding_of = |p: usize| {
            scope
                .bindings
                .iter()
                .find(|b| (b.offset..b.offset + b.columns.len()).contains(&p))
        };
        let by_key = self.rules.groups_by_primary_key();
        let is_grouped = |p: usize| {
            grouped_at.contains(&p)
                || (by_key
                    && binding_of(p)
                        .and_then(|b| {
                            let table = b.table.as_ref()?;
                            let t = &self.w.db.tables[*self.w.db.names.get(table)? as usize];
                            (t.pk_name.is_some() && !t.key.is_empty())
                                .then(|| t.key.iter().all(|k| grouped_at.contains(&(b.offset + k))))
                        })
                        .unwrap_or(false))
        };
        let grouped = |e: &Expr| match &e.kind {
            // An outer reference is one value per group; an unknown name fails later.
            ExprKind::Column(n) => scope.resolve(n).ok().flatten().is_none_or(is_grouped),
            ExprKind::Literal(_) | ExprKind::Var(_) | ExprKind::Global(_) => true,
            _ => canon.contains(&crate::syntax::canonical(e)),
        };
        let fail = |p: usize, having: bool| {
            let name = binding_of(p).map_or(String::new(), |b| {
                format!("{}.{}", b.name, b.columns[p - b.offset])
            });
            SqlError::not_grouped(&name, having)
        };
        for it in &s.items {
            match it {
                SelectItem::Wildcard { qualifier, .. } => {
                    for b in scope.star(qualifier.as_ref()) {
                        let visible = visible(b);
                        if let Some(p) = (b.offset..b.offset + visible).find(|&p| !is_grouped(p)) {
                            return Err(fail(p, false));
                        }
                    }
                }
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                    if let Some(n) = crate::syntax::ungrouped_column(expr, &grouped) {
                        if let Ok(Some(p)) = scope.resolve(n) {
                            return Err(fail(p, false));
                        }
                    }
                }
            }
        }
        if let Some(h) = &s.having {
            if let Some(n) = crate::syntax::ungrouped_column(h, &grouped) {
                if let Ok(Some(p)) = scope.resolve(n) {
                    return Err(fail(p, true));
                }
            }
        }
        Ok(())
    }

    fn run_select_inner(
        &mut self,
        i: usize,
        s: &Select,
        outer: Option<&RowCtx>,
    ) -> Result<QueryOut, Interrupt> {
        // The rows the query around pulls (`pull_limit`), taken by whichever query starts
        // first below it.
        let pulled = self.w.pull_limit.take();
        if s.where_clause.as_ref().is_some_and(has_aggregate) {
            return Err(SqlError::aggregate_in_where().into());
        }
        let aggregate = !s.group_by.is_empty()
            || s.items.iter().any(|it| match it {
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                    has_aggregate(expr)
                }
                _ => false,
            })
            || s.having.as_ref().is_some_and(has_aggregate);
        // TOP ... PERCENT and WITH TIES cut the ordered result; a plain count stops the
        // scan after OFFSET's rows and its own (both locked, as a server's locking
        // read sits below its limit).
        let (limit, cut) = match (&s.top, s.offset.as_ref().and_then(|o| o.fetch.as_ref())) {
            (Some(t), _) if t.percent || t.with_ties => (None, Some(t)),
            (Some(t), _) => (self.row_count(i, &t.count, outer, Count::Top)?, None),
            (None, Some(f)) => (self.row_count(i, f, outer, Count::Fetch)?, None),
            (None, None) => (None, None),
        };
        let mut skip = match &s.offset {
            Some(o) => self
                .row_count(i, &o.skip, outer, Count::Offset)?
                .unwrap_or(0),
            None => 0,
        };
        let limit = limit.map(|n| n.saturating_add(skip));
        // A row-locking query read through a LIMIT around it locks only the rows pulled.
        let limit = match pulled.filter(|_| s.set_op.is_none() && locks_rows(s)) {
            Some(p) => Some(limit.map_or(p, |l| l.min(p))),
            None => limit,
        };
        let mut calls = Vec::new();
        for it in &s.items {
            if let SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } = it {
                window_calls(expr, &mut calls);
            }
        }
        for o in &s.order_by {
            window_calls(&o.expr, &mut calls);
        }
        // One base table, no grouping: the scan itself filters, orders and stops at TOP,
        // which is what lets READPAST and UPDLOCK act row by row in order (window
        // functions need every row first).
        let single = s.from.len() == 1
            && s.from[0].joins.is_empty()
            && !aggregate
            && !s.distinct
            && calls.is_empty();
        // An aggregate or DISTINCT over one table also filters in the scan, as the
        // server's plan does: a key or index the WHERE names is sought (`COUNT(*) ...
        // WHERE id = 5` reads and locks one row, not the table), and the rows WHERE
        // drops are never copied (a check's COUNT(*) over 20 000 rows).
        let untraced_single =
            !single && s.from.len() == 1 && s.from[0].joins.is_empty() && calls.is_empty();
        // A row-lock clause over a join, where only the rows returned are locked.
        let row_locks = if single {
            Vec::new()
        } else {
            self.row_lock_targets(i, s)?
        };
        let reads: Vec<DmlJoin> = row_locks.iter().map(|t| t.read.clone()).collect();
        let scan_order: Cow<[OrderItem]>;
        let (scope, rows) = if single || untraced_single {
            match &s.from[0].factor {
                TableFactor::Table {
                    name, alias, hints, ..
                } if self.base_table(name).is_some() => {
                    let tid = self.base_table(name).unwrap_or(0);
                    // `SELECT MAX(id)` on the clustered key: its first row in that order.
                    let min_max = (!single).then(|| self.min_max_order(s, tid)).flatten();
                    scan_order = if single {
                        order_in_scan(&s.order_by, &s.items, &self.w.db.tables[tid as usize])
                    } else {
                        min_max
                            .clone()
                            .map_or(Cow::Borrowed(&[]), |o| Cow::Owned(vec![o]))
                    };
                    let binding = alias
                        .as_ref()
                        .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase());
                    let spec = ScanSpec {
                        table: tid,
                        binding,
                        hints,
                        purpose: Purpose::Read,
                        pred: s.where_clause.as_ref(),
                        order: &scan_order,
                        limit: if single { limit } else { min_max.map(|_| 1) },
                        select: Some(s),
                        key_sets: &[],
                        latest: false,
                    };
                    let (scope, rows) = self.scan(i, &spec, outer)?;
                    (scope, rows.into_iter().map(|(_, r)| r).collect::<Vec<_>>())
                }
                // A derived table or CTE read alone, unfiltered and unordered: this
                // query's LIMIT is all it pulls from it.
                _ => {
                    if s.where_clause.is_none() && s.order_by.is_empty() && s.offset.is_none() {
                        self.w.pull_limit = limit;
                    }
                    let from = self.rows_of_from(i, &s.from, outer, &reads);
                    self.w.pull_limit = None;
                    from?
                }
            }
        } else {
            self.rows_of_from(i, &s.from, outer, &reads)?
        };
        let one_base_table = matches!(&s.from[0..], [f] if matches!(&f.factor, TableFactor::Table { name, .. } if self.base_table(name).is_some()));
        let filtered_in_scan = single && one_base_table;
        let mut rows = rows;
        if !(filtered_in_scan || untraced_single && one_base_table) {
            if let Some(w) = &s.where_clause {
                let mut keep = Vec::with_capacity(rows.len());
                for r in rows {
                    let ctx = RowCtx {
                        scope: &scope,
                        row: &r,
                        outer,
                        group: None,
                    };
                    if self.holds(i, "WHERE", w, Some(&ctx))? {
                        keep.push(r);
                    }
                }
                rows = keep;
            }
        }
        // An unknown column fails with no row to evaluate it on, too: the server binds a
        // query's names before it reads a row.
        let no_rows = rows.is_empty();
        if no_rows {
            let items = s.items.iter().filter_map(|it| match it {
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => Some(expr),
                _ => None,
            });
            let exprs = (s.where_clause.iter()).chain(items).chain(&s.having);
            self.bind_names(i, exprs, &scope, outer)?;
        }
        // Grouping: each group is represented by its first row plus the group's rows.
        let groups: Vec<(Vec<Value>, Vec<Vec<Value>>)> = if aggregate {
            let mut groups: Vec<Projected> = Vec::new();
            let mut keys = RowSet::default();
            // `GROUP BY 1` and `GROUP BY alias` name a select-list item, where the dialect
            // allows it (an input column of the name comes first).
            let group_by: Vec<&Expr> = s
                .group_by
                .iter()
                .map(|g| {
                    if !self.rules.group_by_output_columns() {
                        return g;
                    }
                    let item = match &g.kind {
                        ExprKind::Literal(sql::ast::Literal::Int(n)) if *n >= 1 => {
                            s.items.get(*n as usize - 1)
                        }
                        ExprKind::Column(n)
                            if n.parts.len() == 1 && scope.resolve(n).ok().flatten().is_none() =>
                        {
                            s.items.iter().find(|it| {
                                matches!(it, SelectItem::Expr { alias: Some(a), .. }
                                    if a.value.eq_ignore_ascii_case(&n.name().value))
                            })
                        }
                        _ => None,
                    };
                    match item {
                        Some(SelectItem::Expr { expr, .. }) => expr,
                        _ => g,
                    }
                })
                .collect();
            self.check_grouped(s, &scope, &group_by)?;
            for r in rows {
                let mut key = Vec::with_capacity(group_by.len());
                for g in group_by.iter().copied() {
                    let ctx = RowCtx {
                        scope: &scope,
                        row: &r,
                        outer,
                        group: None,
                    };
                    key.push(self.eval(i, g, Some(&ctx))?);
                }
                match keys.insert(key) {
                    (g, false) => groups[g].2.push(r),
                    (_, true) => groups.push((Vec::new(), r.clone(), vec![r])),
                }
            }
            if groups.is_empty() && s.group_by.is_empty() {
                // An aggregate over no rows still gives one row (COUNT(*) = 0).
                groups.push((Vec::new(), vec![Value::Null; scope.width()], Vec::new()));
            }
            let mut out = Vec::new();
            for (_, first, members) in groups {
                if let Some(h) = &s.having {
                    let ctx = RowCtx {
                        scope: &scope,
                        row: &first,
                        outer,
                        group: Some(&members),
                    };
                    if !self.holds(i, "HAVING", h, Some(&ctx))? {
                        continue;
                    }
                }
                out.push((first, members));
            }
            out
        } else {
            rows.into_iter().map(|r| (r, Vec::new())).collect()
        };
        let window_values = if calls.is_empty() {
            Vec::new()
        } else {
            self.window_values(i, &calls, &scope, &groups, aggregate, outer)?
        };
        // Project, keeping each source row for ORDER BY on columns not selected (followed
        // by the row's window values, for ORDER BY on them).
        let mut columns = Vec::new();
        for it in &s.items {
            match it {
                SelectItem::Wildcard { qualifier, .. } => {
                    if let Some(q) = qualifier {
                        if scope.star(Some(q)).next().is_none() {
                            return Err(SqlError::unknown_star_prefix(&q.value).into());
                        }
                    }
                    for b in scope.star(qualifier.as_ref()) {
                        columns.extend(b.columns[..visible(b)].iter().cloned());
                    }
                }
                SelectItem::Expr { expr, alias } => columns.push(match alias {
                    Some(a) => a.value.clone(),
                    None => match &expr.kind {
                        ExprKind::Column(n) => n.name().value.clone(),
                        _ => self.rules.unnamed_column(expr, &self.w.frame_source(i)),
                    },
                }),
                SelectItem::Assign { var, .. } => columns.push(var.value.clone()),
            }
        }
        // `ORDER BY 5` past the select list fails, rows or none (108).
        for o in &s.order_by {
            if let ExprKind::Literal(sql::ast::Literal::Int(n)) = &o.expr.kind {
                if *n < 1 || *n as usize > columns.len() {
                    return Err(SqlError::order_position(*n).into());
                }
            }
        }
        ambiguous_order_by(&s.items, &columns, &scope, &s.order_by)?;
        // ORDER BY's names too, but for an output column's (`ORDER BY alias`).
        if no_rows {
            let output = |e: &&Expr| match &e.kind {
                ExprKind::Column(n) if n.parts.len() == 1 => columns
                    .iter()
                    .any(|c| c.eq_ignore_ascii_case(&n.name().value)),
                _ => false,
            };
            let keys = s.order_by.iter().map(|o| &o.expr).filter(|e| !output(e));
            self.bind_names(i, keys, &scope, outer)?;
        }
        let mut projected: Vec<Projected> = Vec::with_capacity(groups.len());
        for (r, (mut src, members)) in groups.into_iter().enumerate() {
            let values = window_values.get(r).map(Vec::as_slice);
            let group = aggregate.then_some(&members[..]);
            let out = self.with_windows(&calls, values, |x| {
                x.project(i, &s.items, &scope, &src, group, outer)
            })?;
            if let Some(values) = values {
                src.extend(values.iter().cloned());
            }
            projected.push((out, src, members));
        }
        if s.distinct {
            let mut seen = RowSet::default();
            projected.retain(|(o, _, _)| seen.insert(o.clone()).1);
        }
        if !s.order_by.is_empty() && !filtered_in_scan {
            let mut keyed = Vec::with_capacity(projected.len());
            for (out, src, members) in projected {
                let values = src.get(scope.width()..).filter(|_| !calls.is_empty());
                let key = self.with_windows(&calls, values, |x| {
                    let mut key = Vec::with_capacity(s.order_by.len());
                    for o in &s.order_by {
                        key.push(x.order_value(
                            i, o, &columns, &out, &scope, &src, &members, aggregate, outer,
                        )?);
                    }
                    Ok(key)
                })?;
                keyed.push((key, (out, src, members)));
            }
            let desc: Vec<bool> = s.order_by.iter().map(|o| o.desc).collect();
            let high = nulls_high(&s.order_by, self.rules.nulls_sort_high());
            keyed.sort_by(|a, b| cmp_keys(&a.0, &b.0, &desc, high));
            projected = keyed.into_iter().map(|(_, p)| p).collect();
        }
        if let Some(t) = cut {
            projected.drain(..skip.min(projected.len()));
            skip = 0;
            let n = self.cut_count(i, s, t, &columns, &scope, &projected, aggregate, outer)?;
            projected.truncate(n);
        }
        if !row_locks.is_empty() {
            projected = self.lock_joined(i, &scope, &row_locks, projected, limit)?;
        }
        let mut rows: Vec<Vec<Value>> = projected.into_iter().map(|(o, _, _)| o).collect();
        if let Some(n) = limit {
            if !filtered_in_scan {
                rows.truncate(n);
            }
        }
        rows.drain(..skip.min(rows.len()));
        Ok(QueryOut { columns, rows })
    }

    /// How many of a query's ordered rows `TOP (n) PERCENT` or `WITH TIES` keeps: n % of
    /// them rounded up, or the first n and every row after them that ties with the last
    /// in ORDER BY.
    #[allow(clippy::too_many_arguments)]
    fn cut_count(
        &mut self,
        i: usize,
        s: &Select,
        t: &sql::ast::Top,
        columns: &[String],
        scope: &Scope,
        projected: &[Projected],
        aggregate: bool,
        outer: Option<&RowCtx>,
    ) -> Result<usize, Interrupt> {
        let mut n = if t.percent {
            let p = self.eval(i, &t.count, outer)?.as_f64().unwrap_or(-1.0);
            if !(0.0..=100.0).contains(&p) {
                return Err(SqlError::generic(
                    1031,
                    16,
                    "Percent values must be between 0 and 100.",
                )
                .into());
            }
            (p * projected.len() as f64 / 100.0).ceil() as usize
        } else {
            self.row_count(i, &t.count, outer, Count::Top)?
                .unwrap_or(usize::MAX)
        };
        if t.with_ties && s.order_by.is_empty() {
            return Err(SqlError::generic(
                1062,
                16,
                "The TOP N WITH TIES clause is not allowed without a corresponding ORDER BY clause.",
            )
            .into());
        }
        if t.with_ties && n > 0 && n < projected.len() {
            let desc: Vec<bool> = s.order_by.iter().map(|o| o.desc).collect();
            let high = nulls_high(&s.order_by, self.rules.nulls_sort_high());
            let key = |x: &mut Self, (out, src, members): &Projected| {
                let mut key = Vec::with_capacity(s.order_by.len());
                for o in &s.order_by {
                    key.push(
                        x.order_value(i, o, columns, out, scope, src, members, aggregate, outer)?,
                    );
                }
                Ok::<_, Interrupt>(key)
            };
            let last = key(self, &projected[n - 1])?;
            while n < projected.len()
                && cmp_keys(&key(self, &projected[n])?, &last, &desc, high)
                    == std::cmp::Ordering::Equal
            {
                n += 1;
            }
        }
        Ok(n)
    }

    /// One row's select list.
    fn project(
        &mut self,
        i: usize,
        items: &[SelectItem],
        scope: &Scope,
        src: &[Value],
        group: Option<&[Vec<Value>]>,
        outer: Option<&RowCtx>,
    ) -> Result<Vec<Value>, Interrupt> {
        let ctx = RowCtx {
            scope,
            row: src,
            outer,
            group,
        };
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            match it {
                SelectItem::Wildcard { qualifier, .. } => {
                    for b in scope.star(qualifier.as_ref()) {
                        out.extend(src[b.offset..b.offset + visible(b)].iter().cloned());
                    }
                }
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                    out.push(self.eval(i, expr, Some(&ctx))?)
                }
            }
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn order_value(
        &mut self,
        i: usize,
        o: &OrderItem,
        columns: &[String],
        out: &[Value],
        scope: &Scope,
        src: &[Value],
        members: &[Vec<Value>],
        aggregate: bool,
        outer: Option<&RowCtx>,
    ) -> Result<Value, Interrupt> {
        // ORDER BY 2, or an alias from the select list.
        if let ExprKind::Literal(sql::ast::Literal::Int(n)) = &o.expr.kind {
            return Ok(out
                .get((*n as usize).saturating_sub(1))
                .cloned()
                .unwrap_or(Value::Null));
        }
        if let ExprKind::Column(n) = &o.expr.kind {
            if n.parts.len() == 1 {
                if let Some(p) = columns
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(&n.name().value))
                {
                    if scope.resolve(n).ok().flatten().is_none() || aggregate {
                        return Ok(out[p].clone());
                    }
                }
            }
        }
        let ctx = RowCtx {
            scope,
            row: src,
            outer,
            group: if aggregate { Some(members) } else { None },
        };
        self.eval(i, &o.expr, Some(&ctx))
    }

    pub(crate) fn base_table(&self, name: &ObjectName) -> Option<u32> {
        if name.parts.len() == 1
            && self
                .w
                .ctes
                .iter()
                .any(|c| c.name.value.eq_ignore_ascii_case(&name.name().value))
        {
            return None;
        }
        // `table_id` lowers the case itself, and only when it must.
        self.w.db.table_id(&name.name().value)
    }

    /// FROM with joins: every factor is read whole, then joined by nested loops; the right
    /// side of an APPLY is read once per left row, with that row as its outer row. `dml`
    /// is an UPDATE or DELETE target among the factors.
    fn rows_of_from(
        &mut self,
        i: usize,
        from: &[TableRef],
        outer: Option<&RowCtx>,
        dml: &[DmlJoin],
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        let mut scope = Scope::default();
        let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
        for (k, tr) in from.iter().enumerate() {
            let (sc, rs) = self.read_factor(i, &tr.factor, outer, dml, (k, None))?;
            rows = if rows.len() == 1 && rows[0].is_empty() {
                rs
            } else {
                join_pairs_fit(rows.len().saturating_mul(rs.len()))?;
                cross(&rows, &rs)
            };
            for b in sc.bindings {
                scope.push(b.name, b.table, b.columns);
            }
            for (n, j) in tr.joins.iter().enumerate() {
                use sql::ast::JoinKind::*;
                if matches!(j.kind, RightOuter | FullOuter) {
                    return Err(SqlError::not_simulated("RIGHT and FULL OUTER JOIN").into());
                }
                let at = (k, Some(n));
                let (sc, right) = if matches!(j.kind, CrossApply | OuterApply) {
                    self.applied_rows(i, &j.factor, &scope, &rows, outer, dml, at)?
                } else {
                    let (sc, rs) = self.read_factor(i, &j.factor, outer, dml, at)?;
                    let all = vec![rs; rows.len().min(1)];
                    (sc, all)
                };
                let mut joined_scope = scope.clone();
                for b in &sc.bindings {
                    joined_scope.push(b.name.clone(), b.table.clone(), b.columns.clone());
                }
                let right_width = sc.width();
                let mut out = Vec::new();
                let mut pairs = 0usize;
                for (li, l) in rows.iter().enumerate() {
                    // A join's right rows are the same for every left row; an APPLY's are
                    // that row's own.
                    let rs = &right[if right.len() == 1 { 0 } else { li }];
                    pairs = pairs.saturating_add(rs.len());
                    join_pairs_fit(pairs)?;
                    let mut matched = false;
                    for r in rs {
                        let mut row = l.clone();
                        row.extend(r.iter().cloned());
                        let ok = match &j.on {
                            Some(on) => {
                                let ctx = RowCtx {
                                    scope: &joined_scope,
                                    row: &row,
                                    outer,
                                    group: None,
                                };
                                self.holds(i, "JOIN/ON", on, Some(&ctx))?
                            }
                            None => true,
                        };
                        if ok {
                            matched = true;
                            out.push(row);
                        }
                    }
                    if !matched && matches!(j.kind, LeftOuter | OuterApply) {
                        let mut row = l.clone();
                        row.extend(std::iter::repeat_n(Value::Null, right_width));
                        out.push(row);
                    }
                }
                rows = out;
                scope = joined_scope;
            }
        }
        Ok((scope, rows))
    }

    /// The right side of CROSS/OUTER APPLY for each left row, with the left row as the
    /// outer row of its references. With no left rows it is read once against a row of
    /// NULLs, for its columns.
    #[allow(clippy::too_many_arguments)]
    fn applied_rows(
        &mut self,
        i: usize,
        f: &TableFactor,
        left_scope: &Scope,
        left: &[Vec<Value>],
        outer: Option<&RowCtx>,
        dml: &[DmlJoin],
        at: FactorAt,
    ) -> Result<PerLeftRows, Interrupt> {
        let nulls = [vec![Value::Null; left_scope.width()]];
        let lefts = if left.is_empty() { &nulls[..] } else { left };
        let mut scope = None;
        let mut per_left = Vec::with_capacity(lefts.len());
        for l in lefts {
            let ctx = RowCtx {
                scope: left_scope,
                row: l,
                outer,
                group: None,
            };
            let (sc, rs) = self.read_factor(i, f, Some(&ctx), dml, at)?;
            scope.get_or_insert(sc);
            per_left.push(rs);
        }
        if left.is_empty() {
            per_left.clear();
        }
        Ok((scope.unwrap_or_default(), per_left))
    }

    /// One factor of FROM: the UPDATE/DELETE target (`dml`, at position `at`) is read with
    /// the statement's update locks, anything else by [`Self::factor_rows`].
    fn read_factor(
        &mut self,
        i: usize,
        f: &TableFactor,
        outer: Option<&RowCtx>,
        dml: &[DmlJoin],
        at: FactorAt,
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        let Some(d) = dml.iter().find(|d| d.at == at) else {
            return self.factor_rows(i, f, outer);
        };
        let spec = ScanSpec {
            table: d.table,
            binding: d.binding.clone(),
            hints: &d.hints,
            purpose: d.purpose,
            pred: d.pred.as_ref(),
            order: &[],
            limit: None,
            select: None,
            key_sets: &[],
            latest: true,
        };
        let (scope, rows) = self.scan(i, &spec, outer)?;
        // The target's rows carry their slot in a hidden last column, through the join.
        let b = &scope.bindings[0];
        let mut columns: Vec<String> = b.columns.to_vec();
        columns.push(SLOT_COLUMN.into());
        let mut sc = Scope::default();
        sc.push(b.name.clone(), b.table.clone(), columns);
        let rows = rows
            .into_iter()
            .map(|(slot, mut r)| {
                r.push(Value::Int(slot as i64));
                r
            })
            .collect();
        Ok((sc, rows))
    }

    fn factor_rows(
        &mut self,
        i: usize,
        f: &TableFactor,
        outer: Option<&RowCtx>,
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        match f {
            TableFactor::Table {
                name, alias, hints, ..
            } => {
                let bind = alias
                    .as_ref()
                    .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase());
                // A recursive CTE's rows of the level before, CTEs, then trigger
                // pseudo-tables, then base tables.
                if name.parts.len() == 1 {
                    let key = name.name().value.to_ascii_lowercase();
                    if let Some((_, cols, rows)) =
                        self.w.working.iter().rev().find(|(n, _, _)| *n == key)
                    {
                        let mut sc = Scope::default();
                        sc.push(bind, None, cols.clone());
                        return Ok((sc, rows.clone()));
                    }
                    if let Some(at) = (self.w.ctes.iter())
                        .rposition(|c| c.name.value.eq_ignore_ascii_case(&name.name().value))
                    {
                        if self.w.ctes[at].modify.is_some() {
                            return self.modified_rows(at, bind);
                        }
                        let c = self.w.ctes[at].clone();
                        return self.cte_rows(i, &c, bind, outer);
                    }
                    let n = name.name().value.to_ascii_lowercase();
                    if n == "inserted" || n == "deleted" {
                        if let Some(t) = self.w.trigger_rows.last() {
                            let rows = if n == "inserted" {
                                t.inserted.clone()
                            } else {
                                t.deleted.clone()
                            };
                            let mut sc = Scope::default();
                            sc.push(bind, Some(n), t.columns.clone());
                            return Ok((sc, rows));
                        }
                    }
                }
                let tid = self.table_id(name)?;
                let spec = ScanSpec {
                    table: tid,
                    binding: bind,
                    hints,
                    purpose: Purpose::Read,
                    pred: None,
                    order: &[],
                    limit: None,
                    select: None,
                    key_sets: &[],
                    latest: false,
                };
                let (scope, rows) = self.scan(i, &spec, outer)?;
                Ok((scope, rows.into_iter().map(|(_, r)| r).collect()))
            }
            TableFactor::Derived {
                query,
                alias,
                columns,
                ..
            } => {
                let out = self.run_select(i, query, outer)?;
                let cols = if columns.is_empty() {
                    out.columns
                } else {
                    columns.iter().map(|c| c.value.clone()).collect()
                };
                let mut sc = Scope::default();
                sc.push(alias.value.to_ascii_lowercase(), None, cols);
                Ok((sc, out.rows))
            }
            TableFactor::Values {
                rows,
                alias,
                columns,
                ..
            } => {
                let mut out = Vec::new();
                for r in rows {
                    let mut row = Vec::new();
                    for e in r {
                        row.push(self.eval(i, e, outer)?);
                    }
                    out.push(row);
                }
                let mut sc = Scope::default();
                sc.push(
                    alias.value.to_ascii_lowercase(),
                    None,
                    columns.iter().map(|c| c.value.clone()).collect::<Vec<_>>(),
                );
                Ok((sc, out))
            }
            TableFactor::Series {
                args,
                alias,
                column,
                ..
            } => {
                let rows = self.series(i, args, outer)?;
                let mut sc = Scope::default();
                sc.push(
                    alias.value.to_ascii_lowercase(),
                    None,
                    vec![column.value.clone()],
                );
                Ok((sc, rows))
            }
            TableFactor::TableVar { name, alias, .. } => {
                let key = name.value.to_ascii_lowercase();
                let t = self
                    .frame(i)
                    .table_vars
                    .get(&key)
                    .ok_or_else(|| SqlError::undeclared_variable(&name.value))?;
                let cols = Rc::clone(&t.column_names);
                let rows = t
                    .clustered_order()
                    .filter_map(|s| t.slots[s].latest().cloned())
                    .collect();
                let mut sc = Scope::default();
                sc.push(
                    alias.as_ref().map_or(key, |a| a.value.to_ascii_lowercase()),
                    None,
                    cols,
                );
                Ok((sc, rows))
            }
        }
    }

    /// `generate_series(start, stop [, step])` of integers: the rows, one value each.
    fn series(
        &mut self,
        i: usize,
        args: &[Expr],
        outer: Option<&RowCtx>,
    ) -> Result<Vec<Vec<Value>>, Interrupt> {
        let mut n = [0i64, 0, 1];
        for (k, e) in args.iter().enumerate() {
            n[k] = match self.eval(i, e, outer)? {
                Value::Int(v) => v,
                Value::Null => return Ok(Vec::new()),
                v => {
                    return Err(SqlError::not_simulated(&format!(
                        "generate_series of {}",
                        v.type_name()
                    ))
                    .into())
                }
            };
        }
        let [start, stop, step] = n;
        if step == 0 {
            return Err(SqlError::generic(0, 16, "step size cannot equal zero")
                .with_sqlstate("22023")
                .into());
        }
        let count = if (step > 0 && start > stop) || (step < 0 && start < stop) {
            0
        } else {
            (stop.abs_diff(start) / step.unsigned_abs()).saturating_add(1)
        };
        if count > crate::exec::MAX_ROWS as u64 {
            return Err(SqlError::limit(format!(
                "generate_series makes {count} rows, more than the {} the simulator keeps in one table",
                crate::exec::MAX_ROWS
            ))
            .into());
        }
        Ok((0..count as i64)
            .map(|k| vec![Value::Int(start + k * step)])
            .collect())
    }

    /// The rows of the data-modifying CTE at `at` in scope: its RETURNING's.
    fn modified_rows(
        &self,
        at: usize,
        bind: String,
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        let Some((_, columns, rows)) = self.w.modified.iter().find(|(k, ..)| *k == at) else {
            return Err(SqlError::not_simulated("a data-modifying WITH read from here").into());
        };
        let mut sc = Scope::default();
        sc.push(bind, None, columns.clone());
        Ok((sc, rows.clone()))
    }

    /// Brings a statement's CTEs into scope. A data-modifying one (`WITH d AS (DELETE
    /// ... RETURNING ...)`) runs now, once, before the statement reads anything, and
    /// its RETURNING rows are its rows. On an error none stays in scope.
    fn push_ctes(&mut self, i: usize, ctes: &[Cte]) -> Result<(), Interrupt> {
        let base = self.w.ctes.len();
        for c in ctes {
            if let Some(m) = &c.modify {
                match self.run_modifying(i, m) {
                    Ok((columns, rows)) => {
                        let columns = if c.columns.is_empty() {
                            columns
                        } else {
                            c.columns.iter().map(|x| x.value.clone()).collect()
                        };
                        let at = self.w.ctes.len();
                        self.w.modified.push((at, columns, rows));
                        if let Some(tid) = self.modified_table(m) {
                            self.w.modified_tables.push(tid);
                        }
                    }
                    Err(e) => {
                        self.pop_ctes(self.w.ctes.len() - base);
                        return Err(e);
                    }
                }
            }
            self.w.ctes.push(c.clone());
        }
        Ok(())
    }

    /// Takes the last `n` CTEs out of scope.
    fn pop_ctes(&mut self, n: usize) {
        let keep = self.w.ctes.len() - n;
        self.w.ctes.truncate(keep);
        self.w.modified.retain(|(at, ..)| *at < keep);
        if self.w.modified.is_empty() {
            self.w.modified_tables.clear();
        }
    }

    /// The table a data-modifying CTE's statement writes.
    fn modified_table(&self, stmt: &sql::ast::Stmt) -> Option<u32> {
        use sql::ast::StmtKind;
        let target = match &stmt.kind {
            StmtKind::Insert(x) => &x.target,
            StmtKind::Update(x) => &x.target,
            StmtKind::Delete(x) => &x.target,
            _ => return None,
        };
        match target {
            TableFactor::Table { name, .. } => self.base_table(name),
            _ => None,
        }
    }

    /// Runs a data-modifying CTE's statement, its RETURNING captured: the columns and
    /// rows (none without RETURNING). Its reads count toward the statement's.
    fn run_modifying(
        &mut self,
        i: usize,
        stmt: &sql::ast::Stmt,
    ) -> Result<(Vec<String>, Vec<Vec<Value>>), Interrupt> {
        let outer = self.w.capture.replace(Vec::new());
        let reads = self.w.query_reads;
        let r = self.exec_statement(i, stmt);
        let captured = std::mem::replace(&mut self.w.capture, outer).unwrap_or_default();
        self.w.query_reads += reads;
        r?;
        Ok(captured
            .into_iter()
            .next()
            .map_or((Vec::new(), Vec::new()), |rs| (rs.columns, rs.rows)))
    }

    fn cte_rows(
        &mut self,
        i: usize,
        c: &Cte,
        bind: String,
        outer: Option<&RowCtx>,
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        let name = c.name.value.to_ascii_lowercase();
        if select_chain(&c.query)
            .iter()
            .any(|(_, m)| from_names(m, &name))
        {
            return self.recursive_cte_rows(i, c, name, bind, outer);
        }
        let out = self.run_select(i, &c.query, outer)?;
        let cols = if c.columns.is_empty() {
            out.columns
        } else {
            c.columns.iter().map(|x| x.value.clone()).collect()
        };
        let mut sc = Scope::default();
        sc.push(bind, None, cols);
        Ok((sc, out.rows))
    }

    /// A recursive CTE: its anchor members, then its recursive members over the rows of
    /// the level before, until a level adds no rows; more than MAXRECURSION (100) levels
    /// is error 530.
    fn recursive_cte_rows(
        &mut self,
        i: usize,
        c: &Cte,
        name: String,
        bind: String,
        outer: Option<&RowCtx>,
    ) -> Result<(Scope, Vec<Vec<Value>>), Interrupt> {
        let members = select_chain(&c.query);
        let split = members
            .iter()
            .position(|(_, m)| from_names(m, &name))
            .unwrap_or(members.len());
        let shape_ok = split > 0
            && members[1..]
                .iter()
                .all(|(op, _)| *op == Some(SetOp::UnionAll))
            && members[split..].iter().all(|(_, m)| from_names(m, &name));
        if !shape_ok || !c.query.order_by.is_empty() {
            return Err(SqlError::not_simulated(
                "this recursive CTE: write anchor members, then recursive members, joined by UNION ALL",
            )
            .into());
        }
        let single = |m: &Select| {
            let mut one = m.clone();
            one.set_op = None;
            one.order_by = Vec::new();
            one
        };
        let mut columns: Option<Vec<String>> =
            (!c.columns.is_empty()).then(|| c.columns.iter().map(|x| x.value.clone()).collect());
        let mut all = Vec::new();
        for (_, m) in &members[..split] {
            let out = self.run_select(i, &single(m), outer)?;
            columns.get_or_insert(out.columns);
            all.extend(out.rows);
        }
        let columns: Rc<[String]> = columns.unwrap_or_default().into();
        let mut level = all.clone();
        let mut depth = 0u32;
        while !level.is_empty() {
            if depth == MAX_RECURSION {
                return Err(SqlError::max_recursion(MAX_RECURSION).into());
            }
            depth += 1;
            self.w.working.push((name.clone(), columns.clone(), level));
            let mut next = Vec::new();
            let mut failed = None;
            for (_, m) in &members[split..] {
                match self.run_select(i, &single(m), outer) {
                    Ok(out) => next.extend(out.rows),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            self.w.working.pop();
            if let Some(e) = failed {
                return Err(e);
            }
            if all.len() + next.len() > crate::exec::MAX_ROWS {
                return Err(SqlError::limit(format!(
                    "a recursive CTE produced more than {} rows",
                    crate::exec::MAX_ROWS
                ))
                .into());
            }
            all.extend(next.iter().cloned());
            level = next;
        }
        let mut sc = Scope::default();
        sc.push(bind, None, columns);
        Ok((sc, all))
    }

    // -----------------------------------------------------------------------------------
    // Scans

    fn locking(
        &mut self,
        i: usize,
        hints: &[TableHint],
        purpose: Purpose,
        latest: bool,
    ) -> Result<Locking, Interrupt> {
        // Most statements have no hints: asked a dozen times below, answered at once.
        let h = |k| !hints.is_empty() && has_hint(hints, k);
        let iso = self.rules.isolation(self.w.sessions[i].options.isolation);
        let versioned = self.rules.versioned_reads();
        // A row-lock clause (SELECT ... FOR UPDATE): its mode, held to the end.
        let clause = hints.iter().find_map(|h| match h.kind {
            HintKind::ForKeyShare => Some(LockMode::ForKeyShare),
            HintKind::ForShare => Some(LockMode::ForShare),
            HintKind::ForNoKeyUpdate => Some(LockMode::ForNoKeyUpdate),
            HintKind::ForUpdate => Some(LockMode::ForUpdate),
            _ => None,
        });
        let readpast = h(HintKind::ReadPast);
        let nolock = h(HintKind::NoLock) || h(HintKind::ReadUncommitted);
        if nolock && purpose != Purpose::Read {
            return Err(SqlError::nolock_on_write_target().into());
        }
        if nolock
            && [
                HintKind::UpdLock,
                HintKind::XLock,
                HintKind::HoldLock,
                HintKind::Serializable,
                HintKind::RepeatableRead,
                HintKind::TabLockX,
            ]
            .into_iter()
            .any(h)
        {
            return Err(SqlError::conflicting_locking_hints().into());
        }

        let hold_hint =
            h(HintKind::HoldLock) || h(HintKind::Serializable) || h(HintKind::RepeatableRead);
        if readpast && clause.is_none() {
            // READPAST only in READ COMMITTED / REPEATABLE READ (Msg 650). A READ UNCOMMITTED
            // session may still locate UPDATE/DELETE targets with it: writes lock anyway.
            let bad_session = match iso {
                IsolationLevel::Snapshot | IsolationLevel::Serializable => true,
                IsolationLevel::ReadUncommitted => {
                    purpose == Purpose::Read && !h(HintKind::UpdLock) && !h(HintKind::XLock)
                }
                _ => false,
            };
            if bad_session || nolock || h(HintKind::HoldLock) || h(HintKind::Serializable) {
                return Err(SqlError::readpast_isolation().into());
            }
        }
        if iso == IsolationLevel::Snapshot && !self.w.db.allow_snapshot && !versioned {
            return Err(SqlError::snapshot_not_allowed().into());
        }
        let updlock = h(HintKind::UpdLock);
        let xlock = h(HintKind::XLock);
        let tablock = h(HintKind::TabLock) || h(HintKind::TabLockX);
        let explicit_lock =
            updlock || xlock || hold_hint || h(HintKind::ReadCommittedLock) || readpast || tablock;
        let mut l = Locking {
            row: None,
            table: None,
            hold: false,
            range: h(HintKind::HoldLock)
                || h(HintKind::Serializable)
                || iso == IsolationLevel::Serializable,
            readpast,
            snapshot: None,
            dirty: false,
        };
        match purpose {
            Purpose::Update | Purpose::Delete => {
                // Writers locate rows with U locks (X with XLOCK), whatever the isolation
                // level, or with the dialect's own row lock.
                let own = self.rules.write_row_lock(purpose == Purpose::Delete);
                l.row = Some(match own {
                    Some(m) if !xlock => m,
                    _ if xlock => LockMode::X,
                    _ => LockMode::U,
                });
                l.hold = true;
                if iso == IsolationLevel::Snapshot {
                    l.snapshot = Some(self.snapshot_seq(i));
                }
            }
            Purpose::Read if clause.is_some() => {
                l.row = clause;
                l.hold = true;
                if iso == IsolationLevel::Snapshot {
                    // Locked on the transaction's snapshot: a row changed since is a
                    // serialization failure.
                    l.snapshot = Some(self.snapshot_seq(i));
                }
            }
            Purpose::Read => {
                if nolock || (iso == IsolationLevel::ReadUncommitted && !explicit_lock) {
                    l.dirty = true;
                } else if !explicit_lock
                    && (iso == IsolationLevel::Snapshot
                        || (iso == IsolationLevel::ReadCommitted && (self.w.db.rcsi || versioned)))
                {
                    // READ COMMITTED's snapshot is the statement's: taken when it began,
                    // so a statement that runs again after a lock wait reads the other
                    // rows as it read them before (only the rows it locks are newer).
                    l.snapshot = Some(if iso == IsolationLevel::Snapshot {
                        self.snapshot_seq(i)
                    } else if latest {
                        self.w.db.commit_seq
                    } else {
                        self.w.sessions[i].statement_seq
                    });
                } else {
                    l.row = Some(if xlock {
                        LockMode::X
                    } else if updlock {
                        LockMode::U
                    } else {
                        LockMode::S
                    });
                    l.hold = updlock
                        || xlock
                        || hold_hint
                        || matches!(
                            iso,
                            IsolationLevel::RepeatableRead | IsolationLevel::Serializable
                        );
                }
            }
        }
        if tablock {
            let x = h(HintKind::TabLockX) || xlock || updlock || purpose != Purpose::Read;
            l.table = Some(if x { LockMode::X } else { LockMode::S });
            l.row = None;
            // An exclusive lock lasts to the end of the transaction, a read's too
            // (`SELECT ... WITH (TABLOCKX)`); a shared one, to the end of the statement
            // unless HOLDLOCK or the isolation level keeps it.
            l.hold |= x;
        }
        Ok(l)
    }

    fn snapshot_seq(&mut self, i: usize) -> u64 {
        let seq = self.w.db.commit_seq;
        self.ensure_txn(i);
        let t = self.w.sessions[i]
            .txn
            .as_mut()
            .expect("ensure_txn made one");
        let taken = t.snapshot_seq.is_none();
        let seq = *t.snapshot_seq.get_or_insert(seq);
        if taken {
            self.ssi_begin(i);
        }
        seq
    }

    /// Reads a base table by the best access path, locking as the isolation level and
    /// hints say, filtering by `pred`, in `order`, stopping after `limit` rows.
    fn scan(
        &mut self,
        i: usize,
        spec: &ScanSpec,
        outer: Option<&RowCtx>,
    ) -> Result<ScanRows, Interrupt> {
        self.nowait(i, spec.hints, |x| x.scan_rows(i, spec, outer))
    }

    /// Runs `f` with the table's NOWAIT hint in force: a lock it would wait for fails
    /// with 1222 at once, like SET LOCK_TIMEOUT 0 for this table only.
    fn nowait<T>(
        &mut self,
        i: usize,
        hints: &[TableHint],
        f: impl FnOnce(&mut Self) -> Result<T, Interrupt>,
    ) -> Result<T, Interrupt> {
        if !has_hint(hints, HintKind::NoWait) {
            return f(self);
        }
        let saved = self.w.sessions[i].timeout_override.replace(0);
        let r = f(self);
        // A wait consumed the override; a scan that never waited leaves it to restore.
        self.w.sessions[i].timeout_override = saved;
        r
    }

    fn scan_rows(
        &mut self,
        i: usize,
        spec: &ScanSpec,
        outer: Option<&RowCtx>,
    ) -> Result<ScanRows, Interrupt> {
        let lk = self.locking(i, spec.hints, spec.purpose, spec.latest)?;
        let tid = spec.table;
        // The statement after a data-modifying WITH reads the tables as they were before
        // it (the server's snapshot leaves out the WITH's own changes), which the
        // simulator's transaction-wide view of its own writes cannot show.
        if self.w.capture.is_none() && self.w.modified_tables.contains(&tid) {
            let name = self.w.db.tables[tid as usize].name.to_string();
            return Err(SqlError::not_simulated(&format!(
                "reading {name} in the statement whose WITH changes it"
            ))
            .into());
        }
        let (table_name, columns) = {
            let t = &self.w.db.tables[tid as usize];
            (t.name.clone(), Rc::clone(&t.column_names))
        };
        let mut scope = Scope::default();
        scope.push(
            spec.binding.clone(),
            Some(table_name.to_ascii_lowercase()),
            columns,
        );
        let own = self.w.sessions[i].txn.as_ref().map(|t| t.id);
        // Table-level locks first: intent locks, or the TABLOCK lock itself.
        let intent = match (lk.table, lk.row) {
            (Some(m), _) => Some(m),
            (None, Some(LockMode::S | LockMode::ForKeyShare | LockMode::ForShare)) => {
                Some(LockMode::IS)
            }
            (None, Some(_)) => Some(LockMode::IX),
            (None, None) => (!lk.dirty && lk.snapshot.is_none()).then_some(LockMode::IS),
        };
        if let Some(m) = intent {
            self.lock(
                i,
                Resource::Object { table: tid },
                m,
                lk.table.is_some() && !lk.hold && spec.purpose == Purpose::Read,
            )?;
        }
        let AccessPath {
            access,
            candidates,
            depth: index_depth,
            seeks,
            missing,
            range,
            index,
            canon,
        } = self.access_path(i, spec, &scope, outer, lk.snapshot.map(|s| (s, own)))?;
        // Each row an index seek finds is looked up in the clustered index for the
        // columns the index lacks, unless it covers the statement.
        let lookups = matches!(access, Access::IndexSeek(_))
            && self.w.tracing
            && !index.is_some_and(|k| self.covers(i, tid, k, spec, canon.as_deref()));
        // SERIALIZABLE keeps the ranges between the keys it reads in a clustered index
        // (the range part of SQL Server's RangeS-S on each key). A unique key it found
        // needs none: no other row can have that key.
        let clustered = access == Access::ClusteredScan || range.is_some();
        let key_ranges = lk.range && lk.table.is_none() && clustered && {
            let t = &self.w.db.tables[tid as usize];
            !t.key.is_empty() && t.hash_key.is_empty() && !t.is_variable
        };
        // A serializable snapshot's reads are tracked (a transaction without a record
        // passes at once).
        let ssi_rows = lk.snapshot.is_some()
            && !self.w.ssi.xacts.is_empty()
            && self.ssi_scan(i, tid, &access)?;
        // The rows a tracked index scan reached, for `meet_newer_entries` below.
        let mut met: Vec<RowId> = Vec::new();
        // SERIALIZABLE (HOLDLOCK) keeps a key it looked for and did not find out of the
        // table: SQL Server locks the range the key would go in, on the next key in the
        // index (or the end of the index), and an INSERT into that range tests it. So an
        // `IF NOT EXISTS (... WITH (UPDLOCK, HOLDLOCK))` guard makes the second session
        // wait, an insert of any key in the range waits, and HOLDLOCK alone makes two
        // such inserts deadlock, as they do there. (A versioned dialect's SERIALIZABLE
        // never reaches here with `range`: it reads a snapshot and locks only rows that
        // exist.)
        if let (Some(mode), None, true) = (lk.row, lk.table, lk.range) {
            for key in &missing {
                self.lock_key_range(i, tid, key, mode)?;
            }
        }
        let cl_depth = self.cl_depth(tid);
        // A heap's scan reads its pages, dead versions' included, with no tree above them.
        let heap_pages = match &self.w.db.tables[tid as usize].heap {
            Some(heap) if self.w.tracing => Some(u64::from(heap.pages())),
            _ => None,
        };
        let mut reads = match &access {
            Access::ClusteredSeek => cl_depth * seeks,
            Access::PrimaryIndex => 1,
            Access::IndexSeek(_) => index_depth as u64,
            Access::ClusteredScan if heap_pages.is_some() => 0,
            Access::ClusteredScan => cl_depth.saturating_sub(1),
            Access::Constant => 0,
            // Only the trace names a heap's accesses so (below): the path is one of the
            // above, and these arms are their heap counterparts.
            Access::SeqScan | Access::AllRowsScan => 0,
            Access::IndexScan(_) => index_depth as u64,
        };
        let rows_per_page = if self.w.tracing {
            let t = &mut self.w.db.tables[tid as usize];
            let n = t.order.len().max(1) as u64;
            let pages = heap_pages.unwrap_or_else(|| u64::from(t.leaf_pages()));
            n.div_ceil(pages.max(1)).max(1)
        } else {
            1
        };
        let mut out = Vec::new();
        let mut examined = 0u64;
        let mut candidates = candidates;
        let check_first = self.rules.lock_matching_rows_only();
        // A sequential scan sorted afterwards filters every row before the sort
        // (`Rules::filters_before_sort`): which rows pass, by slot, decided in the order
        // the scan reads them, each once; a row-lock clause's rows by their version as of
        // the statement (or snapshot), as `check_first` below does row by row.
        let filter_seq = (lk.row.is_some() && check_first)
            .then(|| lk.snapshot.unwrap_or(self.w.sessions[i].statement_seq));
        let passed: Option<Vec<bool>> = if (lk.row.is_none() || filter_seq.is_some())
            && lk.table.is_none()
            && access == Access::ClusteredScan
            && !spec.order.is_empty()
            && spec.pred.is_some()
            && self.rules.filters_before_sort()
        {
            let t = &self.w.db.tables[tid as usize];
            let mut passed = vec![false; t.slots.len()];
            let order: Vec<RowId> = t.clustered_order().collect();
            for slot in order {
                let slot_rc = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
                let row = match filter_seq {
                    Some(seq) => slot_rc.visible_at(seq, own),
                    None => unlocked_version(&slot_rc, &lk, own),
                };
                if let Some(row) = row {
                    passed[slot] = self.row_matches(i, &scope, row, spec.pred, outer)?;
                }
            }
            Some(passed)
        } else {
            None
        };
        // A READ COMMITTED locking read keeps each row as it read it, for the statement's
        // run after a wait (`Session::read_earlier`).
        let memo_reads = lk.row == Some(LockMode::S)
            && lk.table.is_none()
            && !lk.hold
            && lk.snapshot.is_none()
            && !check_first
            && self.w.tracing;
        // TOP 0 / LIMIT 0 reads nothing (the check after each row stops at one).
        while let Some(slot) = candidates
            .next(&self.w.db.tables[tid as usize])
            .filter(|_| spec.limit != Some(0))
        {
            examined += 1;
            self.w.statement_rows += 1;
            if self.w.statement_rows > crate::exec::MAX_STATEMENT_ROWS {
                return Err(SqlError::limit(format!(
                    "a statement reads more than {} rows, the most the simulator reads in one \
                     statement",
                    crate::exec::MAX_STATEMENT_ROWS
                ))
                .into());
            }
            if let Some(t) = &mut self.out.touched {
                t.read.push((tid, slot));
            }
            if ssi_rows {
                self.ssi_read_row(i, tid, slot)?;
                met.push(slot);
            }
            if lookups {
                reads += cl_depth;
            }
            let earlier = match (memo_reads, &self.w.sessions[i].read_earlier) {
                (true, Some(rows)) => rows.get(&(tid, slot)).cloned(),
                _ => None,
            };
            if let Some(earlier) = earlier {
                // Read before the statement waited: as it was then, and not locked again.
                if let Some(row) = earlier.visible_at(u64::MAX, own) {
                    if self.row_matches(i, &scope, row, spec.pred, outer)? {
                        out.push((slot, row.clone()));
                    }
                }
            } else if let (Some(mode), None) = (lk.row, lk.table) {
                if check_first {
                    // Only a row whose version as of the statement (or snapshot) matches
                    // is locked; the newest version is checked again once locked. As of
                    // the statement's start, also when it runs again after a wait: rows
                    // that came to match meanwhile stay out.
                    let seq = lk.snapshot.unwrap_or(self.w.sessions[i].statement_seq);
                    let slot_rc = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
                    let matches = match &passed {
                        Some(passed) => passed.get(slot).copied().unwrap_or(false),
                        None => match slot_rc.visible_at(seq, own) {
                            Some(row) => self.row_matches(i, &scope, row, spec.pred, outer)?,
                            None => false,
                        },
                    };
                    if !matches {
                        continue;
                    }
                }
                let res = self.key_resource(tid, slot);
                let mode = match self.key_update_mode(i, tid, slot, &scope, spec, outer) {
                    Some(key_mode) => key_mode,
                    None => mode,
                };
                if lk.readpast && self.skip_locked(i, tid, slot, &res, mode) {
                    continue;
                }
                let page_mode = match mode {
                    LockMode::S => LockMode::IS,
                    LockMode::U => LockMode::IU,
                    _ => LockMode::IX,
                };
                let transient = !lk.hold;
                if self.w.tracing && self.rules.page_locks() {
                    let page = self.page_resource(tid, slot);
                    self.lock(i, page, page_mode, transient)?;
                }
                let had = self.w.sessions[i]
                    .txn
                    .as_ref()
                    .and_then(|t| self.w.locks.held(t.id, &res))
                    .is_some()
                    && !self.w.sessions[i].fresh_locks.contains(&res);
                let below = key_ranges.then(|| self.range_below(tid, slot));
                let new_range = match &below {
                    Some(r) => self.lock_quiet(i, r.clone(), mode, false)?,
                    None => false,
                };
                let new_lock = self.lock_quiet(i, res.clone(), mode, transient)?;
                // A row an update moved to a new key (`Table::moved_to`): a dialect that
                // follows a row's update chain locks its newest version there and checks
                // that, as it does a row updated in place; elsewhere the row is gone.
                let (slot, res, new_lock) = match self.moved_row(tid, slot, lk.snapshot) {
                    Some(to) => {
                        if !had {
                            self.drop_statement_lock(i, &res);
                        }
                        let to_res = self.key_resource(tid, to);
                        let got = self.lock_quiet(i, to_res.clone(), mode, transient)?;
                        (to, to_res, got)
                    }
                    None => (slot, res, new_lock),
                };
                // Shared with the table: the row is copied only when the scan keeps it.
                let slot_rc = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
                if memo_reads {
                    (self.w.sessions[i].read_now).push((tid, slot, Rc::clone(&slot_rc)));
                }
                let data = match lk.snapshot {
                    // SNAPSHOT writers decide on their snapshot's version of the row.
                    Some(seq) => slot_rc.visible_at(seq, own),
                    // The newest committed version, or the transaction's own: a lock that
                    // lets another's uncommitted update be (FOR KEY SHARE beside a
                    // no-key UPDATE) does not read it.
                    None => slot_rc.visible_at(u64::MAX, own),
                };
                // A row filtered before the sort is checked again only when it changed
                // since (the server's recheck of a concurrently updated row): a function
                // in WHERE with a side runs once for an unchanged row.
                let filtered = (passed.as_ref())
                    .and(filter_seq)
                    .and_then(|seq| slot_rc.visible_at(seq, own));
                let keep = match &data {
                    Some(row) if filtered.is_some_and(|f| std::ptr::eq(f, *row)) => true,
                    Some(row) => self.row_matches(i, &scope, row, spec.pred, outer)?,
                    None => false,
                };
                // A row that does not qualify loses the lock the scan took on it (update
                // scans and READ COMMITTED), unless the transaction held it before.
                if !keep
                    && !had
                    && !lk.range
                    && (spec.purpose != Purpose::Read || !lk.hold || mode == LockMode::U)
                {
                    self.drop_statement_lock(i, &res);
                }
                if keep && !transient && self.w.tracing {
                    let granted =
                        (below.filter(|_| new_range).into_iter()).chain(new_lock.then_some(res));
                    for r in granted {
                        self.push_granted(i, &r, mode);
                    }
                }
                if keep {
                    if let Some(row) = data {
                        if let Some(seq) = lk.snapshot {
                            // SNAPSHOT writers: a row changed since the snapshot is a
                            // conflict. A key-share lock passes updates that kept every
                            // key column (they do not conflict with it): it locks the
                            // version it sees.
                            let passes = mode == LockMode::ForKeyShare
                                && self.w.db.tables[tid as usize].keys_kept_since(slot, seq);
                            let read = spec.purpose == Purpose::Read;
                            if let Some(e) =
                                self.changed_since(tid, slot, seq, read).filter(|_| !passes)
                            {
                                return Err(e.into());
                            }
                        }
                        out.push((slot, row.clone()));
                    }
                }
            } else {
                let slot_rc = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
                if let Some(row) = unlocked_version(&slot_rc, &lk, own) {
                    let keep = match &passed {
                        Some(passed) => passed.get(slot).copied().unwrap_or(false),
                        None => self.row_matches(i, &scope, row, spec.pred, outer)?,
                    };
                    if keep {
                        out.push((slot, row.clone()));
                    }
                }
            }
            if spec.limit.is_some_and(|n| out.len() >= n) {
                break;
            }
        }
        // A lock granted after a wait on a row the re-run no longer reaches (it left the
        // index, say) is dropped as the scan would have dropped it on that row.
        if let (Some(mode), Some(owner)) = (lk.row, self.w.sessions[i].txn.as_ref().map(|t| t.id)) {
            // No fresh key lock of this table (setup takes none): nothing can be stale.
            // Asked last: it walks the session's fresh locks.
            let any_fresh = || {
                self.w.sessions[i]
                    .fresh_locks
                    .iter()
                    .any(|r| matches!(r, Resource::Key { table, .. } if *table == tid))
            };
            if !lk.range
                && (spec.purpose != Purpose::Read || mode == LockMode::U || !lk.hold)
                && any_fresh()
            {
                // A set: a scan of n rows must not compare n fresh locks with n rows. A
                // claim keeps one row, where a list is cheaper than building a set.
                let kept: Vec<Resource> = out
                    .iter()
                    .map(|(s, _)| self.key_resource(tid, *s))
                    .collect();
                let kept_set: Option<std::collections::BTreeSet<&Resource>> =
                    (kept.len() > 8).then(|| kept.iter().collect());
                let is_kept = |r: &Resource| match &kept_set {
                    Some(set) => set.contains(r),
                    None => kept.contains(r),
                };
                let stale: Vec<Resource> = self.w.sessions[i]
                    .fresh_locks
                    .iter()
                    .filter(|r| {
                        matches!(r, Resource::Key { table, .. } if *table == tid) && !is_kept(r)
                    })
                    .cloned()
                    .collect();
                for r in stale {
                    if self.w.locks.held(owner, &r).is_some_and(|(m, _)| m == mode) {
                        let grants = self.w.locks.release(owner, &r);
                        self.w.sessions[i].fresh_locks.remove(&r);
                        self.wake(grants);
                    }
                }
            }
        }
        if ssi_rows {
            self.meet_newer_entries(i, tid, &met, &scope, spec.pred, outer)?;
        }
        // A TOP or LIMIT that stopped a read in the index's own order (no ORDER BY, or
        // one by the clustered key, either way) read no further.
        let limited = spec.limit.is_some_and(|n| out.len() >= n);
        let order = limited.then(|| self.key_order(tid, spec.order)).flatten();
        let stopped_early = order.is_some();
        if let (Some(r), true) = (&range, self.w.tracing) {
            // A range seek reads down to its first key, then along the leaf pages to its
            // last (or to the row where a TOP stopped it; backwards from its last key
            // when ordered by the key descending).
            let n = (examined as usize).saturating_sub(1);
            let (from, to) = match (stopped_early, order) {
                (true, Some(true)) => {
                    let high = r.last - usize::from(r.next.is_some() && r.last > r.first);
                    (high.saturating_sub(n), high)
                }
                (true, _) => (r.first, r.first + n),
                (false, _) => (r.first, r.last),
            };
            let per_page = rows_per_page as usize;
            reads += (to / per_page).saturating_sub(from / per_page) as u64;
            // SERIALIZABLE keeps the range past its last key: the next key and the range
            // below it (SQL Server's RangeS-S on the next key), or the end of the index.
            if let (Some(mode), true, false) = (lk.row, key_ranges, stopped_early) {
                match r.next {
                    Some(next) => {
                        let below = self.range_below(tid, next);
                        self.lock(i, below, mode, false)?;
                        let key = self.key_resource(tid, next);
                        self.lock(i, key, mode, false)?;
                    }
                    None => self.lock(i, end_of_index(tid), mode, false)?,
                }
            }
        }
        if access == Access::ClusteredScan && self.w.tracing {
            let t = &mut self.w.db.tables[tid as usize];
            let leaf = heap_pages.unwrap_or_else(|| u64::from(t.leaf_pages()));
            reads += if stopped_early {
                examined.div_ceil(rows_per_page).max(1)
            } else {
                leaf
            };
            // A SERIALIZABLE scan that read to the end of a clustered index keeps the
            // range past its last key too (SQL Server's lock on the end of the index),
            // so no other session inserts a row it would have read: another such scan
            // of an empty table waits (UPDLOCK) and an INSERT behind it waits.
            let t = &self.w.db.tables[tid as usize];
            let keyed = !t.key.is_empty() && t.hash_key.is_empty() && !t.is_variable;
            if let (Some(mode), None, true, false, true) =
                (lk.row, lk.table, lk.range, stopped_early, keyed)
            {
                self.lock(i, end_of_index(tid), mode, false)?;
            }
        }
        self.w.query_reads += reads;
        if self.w.tracing && !self.w.db.tables[tid as usize].is_variable {
            let name = self.w.sessions[i].name.clone();
            let access = self
                .rules
                .access_name(&self.w.db.tables[tid as usize], access);
            self.push(Event::RowsRead {
                session: name,
                table: table_name,
                rows: out.len() as u64,
                logical_reads: reads,
                access,
                reads_name: "",
            });
        }
        Ok((scope, out))
    }

    /// READPAST / SKIP LOCKED: true (and the skip is traced) when another transaction
    /// holds `res`, row `slot` of `tid`, in a mode that conflicts with `mode`.
    fn skip_locked(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        res: &Resource,
        mode: LockMode,
    ) -> bool {
        let owner = self.ensure_txn(i);
        let blockers = self.w.locks.conflicts(owner, res, mode);
        if blockers.is_empty() {
            return false;
        }
        let holders = self.w.locks.holders(res);
        let (holder, held) = holders
            .iter()
            .find(|(o, _, _)| blockers.contains(o))
            .map(|(o, m, _)| (self.w.owner_name(*o), *m))
            .unwrap_or_else(|| ("another session".into(), LockMode::X));
        let t = &self.w.db.tables[tid as usize];
        let (table, key) = (t.name.clone(), t.key_text(slot));
        let name = self.w.sessions[i].name.clone();
        self.push(Event::RowSkipped {
            session: name,
            table,
            key,
            holder,
            held,
            wanted: mode,
            clause: "READPAST",
            held_name: None,
            wanted_name: None,
        });
        true
    }

    /// Fails as evaluating `exprs` on a row would where one names a column the query
    /// does not have: for a statement that found no row to evaluate them on.
    fn bind_names<'e>(
        &self,
        i: usize,
        exprs: impl Iterator<Item = &'e Expr>,
        scope: &Scope,
        outer: Option<&RowCtx>,
    ) -> Result<(), Interrupt> {
        let ctx = RowCtx {
            scope,
            row: &[],
            outer,
            group: None,
        };
        let mut refs = Vec::new();
        for e in exprs {
            crate::syntax::column_refs(e, &mut refs);
        }
        for n in refs {
            self.check_column(i, n, &ctx)?;
        }
        Ok(())
    }

    /// A tracked index scan also reaches the index entries of versions its snapshot
    /// does not see (the server's index holds an entry for each version until vacuum):
    /// a row the scan did not reach whose newer or uncommitted version matches `pred`
    /// has those versions met (not marked: the version the snapshot sees is not the
    /// one such an entry leads to).
    fn meet_newer_entries(
        &mut self,
        i: usize,
        tid: u32,
        met: &[RowId],
        scope: &Scope,
        pred: Option<&Expr>,
        outer: Option<&RowCtx>,
    ) -> Result<(), Interrupt> {
        let Some((snapshot, own)) = self.ssi_snapshot(i) else {
            return Ok(());
        };
        for slot in 0..self.w.db.tables[tid as usize].slots.len() {
            if met.contains(&slot) {
                continue;
            }
            let s = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
            let newer = (s.committed.iter())
                .filter(|(seq, _)| *seq > snapshot)
                .filter_map(|(_, d)| d.as_ref())
                .chain(
                    (s.pending.iter())
                        .filter(|(t, _)| *t != own)
                        .filter_map(|(_, d)| d.as_ref()),
                );
            let mut matches = false;
            for row in newer {
                if self.row_matches(i, scope, row, pred, outer)? {
                    matches = true;
                    break;
                }
            }
            if matches {
                self.ssi_meet_entry(i, tid, slot)?;
            }
        }
        Ok(())
    }

    /// The key-update lock when the UPDATE `spec` locates for changes the key of `slot`
    /// (its newest data with the assignments to key columns applied); None: the
    /// statement's row lock. An assignment that fails here fails again at the write.
    fn key_update_mode(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        scope: &Scope,
        spec: &ScanSpec,
        outer: Option<&RowCtx>,
    ) -> Option<LockMode> {
        if spec.key_sets.is_empty() {
            return None;
        }
        let key_mode = self.rules.key_update_lock()?;
        let own = self.w.sessions[i].txn.as_ref().map(|t| t.id);
        let slot_rc = Rc::clone(&self.w.db.tables[tid as usize].slots[slot]);
        let old = slot_rc
            .latest()
            .or_else(|| slot_rc.visible_at(u64::MAX, own))?;
        let mut new = old.clone();
        for &(c, e) in spec.key_sets {
            let ctx = RowCtx {
                scope,
                row: old,
                outer,
                group: None,
            };
            let v = self.eval(i, e, Some(&ctx)).ok()?;
            let ty = self.w.db.tables[tid as usize].columns[c].ty;
            new[c] = self.convert(&v, &ty, None).ok()?;
        }
        self.w.db.tables[tid as usize]
            .changes_key(old, &new)
            .then_some(key_mode)
    }

    fn row_matches(
        &mut self,
        i: usize,
        scope: &Scope,
        row: &[Value],
        pred: Option<&Expr>,
        outer: Option<&RowCtx>,
    ) -> Result<bool, Interrupt> {
        match pred {
            None => Ok(true),
            Some(p) => {
                let ctx = RowCtx {
                    scope,
                    row,
                    outer,
                    group: None,
                };
                self.holds(i, "WHERE", p, Some(&ctx))
            }
        }
    }

    /// Depth of a table's clustered index, for read counts (setup does not count reads).
    /// [`Self::index_covers`], found once per SELECT text and index.
    fn covers(
        &mut self,
        i: usize,
        tid: u32,
        k: usize,
        spec: &ScanSpec,
        canon: Option<&[String]>,
    ) -> bool {
        let Some(select) = spec.select else {
            return false;
        };
        let source = self.w.sessions[i]
            .frames
            .last()
            .map_or(usize::MAX, |f| f.source);
        let index_id = self.w.db.tables[tid as usize].indexes[k].id;
        let key = (source, select.span.start, select.span.end, tid, index_id);
        if let Some(&known) = self.out.covering.get(&key) {
            return known;
        }
        let covers = self.index_covers(tid, k, spec, canon);
        Rc::make_mut(&mut self.out.covering).insert(key, covers);
        covers
    }

    /// Whether index `k` of table `tid` holds every column the scan reads: the SELECT's
    /// other columns (its items, grouping and ORDER BY) and those of each WHERE conjunct
    /// the index's filter does not already say (a filter's column need not be in the
    /// index when the query's predicate is the filter's and it returns no such column).
    /// Every entry carries the clustered key. `canon`: the conjuncts' canonical texts,
    /// as the access path matched them with the filter.
    fn index_covers(&self, tid: u32, k: usize, spec: &ScanSpec, canon: Option<&[String]>) -> bool {
        let Some(select) = spec.select.filter(|_| self.rules.covering_indexes()) else {
            return false;
        };
        let t = &self.w.db.tables[tid as usize];
        let ix = &t.indexes[k];
        let held = |name: &sql::ast::ObjectName| {
            let name = &name.name().value;
            match t
                .columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(name))
            {
                Some(c) => {
                    ix.columns.iter().any(|&(ic, _)| ic == c)
                        || ix.include.contains(&c)
                        || t.key.contains(&c)
                }
                // Not the table's: a variable's, or an outer query's row.
                None => true,
            }
        };
        let all_held = |e: &Expr| {
            !has_subquery(e) && {
                let mut refs = Vec::new();
                column_refs(e, &mut refs);
                refs.into_iter().all(held)
            }
        };
        for it in &select.items {
            match it {
                SelectItem::Wildcard { .. } => return false,
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                    if !all_held(expr) {
                        return false;
                    }
                }
            }
        }
        let others = (select.group_by.iter())
            .chain(select.having.as_ref())
            .chain(select.order_by.iter().map(|o| &o.expr));
        for e in others {
            if !all_held(e) {
                return false;
            }
        }
        let preds = spec.pred.map(conjuncts).unwrap_or_default();
        preds.iter().enumerate().all(|(n, p)| {
            all_held(p)
                || (ix.filter.is_some() && {
                    let text = match canon.and_then(|c| c.get(n)) {
                        Some(text) => Cow::Borrowed(text.as_str()),
                        None => Cow::Owned(canonical(p)),
                    };
                    ix.filter_canon.iter().any(|f| *f == *text)
                })
        })
    }

    fn cl_depth(&mut self, tid: u32) -> u64 {
        if !self.w.tracing {
            return 0;
        }
        self.w.db.tables[tid as usize].clustered_depth() as u64
    }

    pub(crate) fn key_resource(&self, tid: u32, slot: RowId) -> Resource {
        let t = &self.w.db.tables[tid as usize];
        if !t.hash_key.is_empty() {
            // A hash-keyed table locks rows by the hash of their hash-key value.
            if let Some(row) = t.slots[slot]
                .latest()
                .or_else(|| t.slots[slot].latest_committed())
            {
                return Resource::RowHash {
                    table: tid,
                    hash: t.row_hash(row),
                };
            }
        }
        Resource::Key {
            table: tid,
            index: 1,
            key: self.w.db.tables[tid as usize].key_rc(slot),
        }
    }

    /// `SELECT MIN(k)` or `SELECT MAX(k)` alone, `k` the leading column of a clustered key
    /// read in its order: the order that puts the answer first. SQL Server reads the
    /// first row of the index forwards or backwards (a TOP 1), not every row.
    fn min_max_order(&self, s: &Select, tid: u32) -> Option<OrderItem> {
        if !s.group_by.is_empty() || s.having.is_some() || s.distinct || s.items.len() != 1 {
            return None;
        }
        let (SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. }) = &s.items[0] else {
            return None;
        };
        let ExprKind::Function {
            name,
            args,
            distinct: false,
            star: false,
            ..
        } = &expr.kind
        else {
            return None;
        };
        let desc = match name.as_str() {
            "MIN" => false,
            "MAX" => true,
            _ => return None,
        };
        let [arg] = &args[..] else { return None };
        let item = OrderItem {
            expr: arg.clone(),
            desc,
            nulls_first: None,
        };
        self.key_order(tid, std::slice::from_ref(&item))?;
        Some(item)
    }

    /// Whether rows in `order` come in the clustered index's own order: `Some(false)`
    /// without an ORDER BY or with one by the key's leading columns ascending (a forward
    /// scan), `Some(true)` by them descending (a backward scan), `None` otherwise (the
    /// rows are sorted after they are read). A heap's rows are in no key's order.
    fn key_order(&self, tid: u32, order: &[OrderItem]) -> Option<bool> {
        let Some(first) = order.first() else {
            return Some(false);
        };
        let t = &self.w.db.tables[tid as usize];
        let by_key = order.len() <= t.key.len()
            && t.hash_key.is_empty()
            && t.heap.is_none()
            && order.iter().zip(&t.key).all(|(o, &k)| {
                o.desc == first.desc
                    && o.nulls_first.is_none()
                    && matches!(&o.expr.kind, ExprKind::Column(n)
                        if n.name().value.eq_ignore_ascii_case(&t.columns[k].name))
            });
        by_key.then_some(first.desc)
    }

    /// The range between a key and the key before it, as a lock resource.
    fn range_below(&self, tid: u32, slot: RowId) -> Resource {
        Resource::Key {
            table: tid,
            index: 1,
            key: self.w.db.tables[tid as usize].range_below(slot),
        }
    }

    fn page_resource(&mut self, tid: u32, slot: RowId) -> Resource {
        let t = &mut self.w.db.tables[tid as usize];
        let per_page = (t.order.len().max(1))
            .div_ceil(t.leaf_pages().max(1) as usize)
            .max(1);
        Resource::Page {
            table: tid,
            index: 1,
            page: (slot / per_page) as u32 + 1,
        }
    }

    /// Chooses a clustered seek, a (filtered) index seek or a clustered scan, and returns
    /// the candidate rows in the order the path yields them.
    fn access_path(
        &mut self,
        i: usize,
        spec: &ScanSpec,
        scope: &Scope,
        outer: Option<&RowCtx>,
        snapshot: Option<(u64, Option<u32>)>,
    ) -> Result<AccessPath, Interrupt> {
        let tid = spec.table;
        let preds: Vec<&Expr> = spec.pred.map(conjuncts).unwrap_or_default();
        // The predicate's conjuncts as text, built when a filtered index asks for them.
        let mut canon: Option<Vec<String>> = None;
        // Equality on every clustered key column: a seek.
        let n_key = self.w.db.tables[tid as usize].key.len();
        if n_key > 0 {
            let mut key = Vec::new();
            for n in 0..n_key {
                let t = &self.w.db.tables[tid as usize];
                let col = &t.columns[t.key[n]].name;
                let Some(e) = equality_expr(&preds, col, scope) else {
                    break;
                };
                key.push(self.eval(i, e, outer)?);
            }
            if key.len() == n_key {
                let t = &self.w.db.tables[tid as usize];
                let mut converted = Vec::with_capacity(n_key);
                for (k, &kc) in key.iter().zip(&t.key) {
                    let ty = &t.columns[kc].ty;
                    converted.push(match convert(k, ty, None) {
                        Ok(v) => v,
                        // Text sought in a numeric key is converted to a number first,
                        // and fails as that conversion does (`id = 'one'`).
                        Err(e) if matches!(k, Value::Text(_)) && numeric(ty) => {
                            return Err((*e).into())
                        }
                        Err(_) => Value::Null,
                    });
                }
                let ord =
                    crate::state::storage::OrdKey(converted.into(), vec![false; n_key].into());
                let found: Vec<RowId> = t.find_key(&ord).into_iter().collect();
                // The key range the key looked for falls in, when no row has it.
                let missing =
                    (found.is_empty() && t.hash_key.is_empty() && self.w.tracing).then_some(ord);
                return Ok(AccessPath {
                    missing: missing.into_iter().collect(),
                    ..AccessPath::new(Access::ClusteredSeek, listed(found))
                });
            }
        }
        // IN on a one-column clustered key: a seek for each value.
        if n_key == 1 && !has_hint(spec.hints, HintKind::ForceScan) {
            if let Some(values) = self.in_values(i, tid, (&preds, scope, outer))? {
                let (seeks, found, missing) = self.seek_each(tid, values)?;
                let found = self.in_order(i, found, spec, (scope, outer), snapshot)?;
                return Ok(AccessPath {
                    seeks,
                    missing,
                    ..AccessPath::new(Access::ClusteredSeek, listed(found))
                });
            }
        }
        // Equality on every hash-key column is a row-hash access (a one-AMP access).
        let n_pi = self.w.db.tables[tid as usize].hash_key.len();
        if n_pi > 0 {
            let mut want = Vec::new();
            for n in 0..n_pi {
                let t = &self.w.db.tables[tid as usize];
                let c = t.hash_key[n];
                let Some(e) = equality_expr(&preds, &t.columns[c].name, scope) else {
                    break;
                };
                want.push((c, self.eval(i, e, outer)?));
            }
            if want.len() == n_pi {
                let t = &self.w.db.tables[tid as usize];
                let found: Vec<RowId> = t
                    .clustered_order()
                    .filter(|&s| {
                        let row = t.slots[s]
                            .latest()
                            .or_else(|| t.slots[s].latest_committed());
                        row.is_some_and(|r| {
                            want.iter()
                                .all(|(c, v)| compare(&r[*c], v) == Some(Ordering::Equal))
                        })
                    })
                    .collect();
                return Ok(AccessPath::new(Access::PrimaryIndex, listed(found)));
            }
        }
        // A nonclustered index whose filter the predicate implies, and which gives the
        // requested order or a seek on its leading column.
        let n_ix = self.w.db.tables[tid as usize].indexes.len();
        for k in 0..n_ix {
            let t = &self.w.db.tables[tid as usize];
            let ix = &t.indexes[k];
            let filter_ok = ix.filter.is_none() || {
                let canon =
                    canon.get_or_insert_with(|| preds.iter().map(|p| canonical(p)).collect());
                ix.filter_canon.iter().all(|c| canon.contains(c))
            };
            if !filter_ok || has_hint(spec.hints, HintKind::ForceScan) {
                continue;
            }
            let ordered = !spec.order.is_empty()
                && spec.order.len() <= ix.columns.len()
                && spec.order.iter().zip(&ix.columns).all(|(o, (c, desc))| {
                    matches!(&o.expr.kind, ExprKind::Column(n) if t.columns[*c].name.eq_ignore_ascii_case(&n.name().value)) && o.desc == *desc
                        // An index keeps NULLs where the dialect sorts them.
                        && o.nulls_first.is_none_or(|first| first == (o.desc == t.nulls_high))
                });
            let filtered = ix.filter.is_some();
            let lead = &t.columns[ix.columns[0].0];
            let seek_value: Option<Rc<[(BinaryOp, Value)]>> =
                match equality_expr(&preds, &lead.name, scope) {
                    Some(e) => Some(Rc::from([(BinaryOp::Eq, self.eval(i, e, outer)?)])),
                    // A range on a numeric or temporal leading column (`at < @t`), where
                    // the dialect seeks ranges.
                    None if self.rules.clustered_range_seeks()
                        && (numeric(&lead.ty) || temporal(&lead.ty)) =>
                    {
                        let (name, ty) = (lead.name.clone(), lead.ty);
                        let bounds = range_bounds(&preds, &name, scope);
                        let mut values = Vec::with_capacity(bounds.len());
                        for (op, e) in bounds {
                            let v = self.eval(i, e, outer)?;
                            // A date in quotes compares as the column's type; one that
                            // does not convert leaves the comparison to the scan.
                            let v = match v {
                                Value::Text(_) if temporal(&ty) => {
                                    convert(&v, &ty, None).unwrap_or(v)
                                }
                                v => v,
                            };
                            values.push((op, v));
                        }
                        let comparable = values.iter().all(|(_, v)| {
                            matches!(v, Value::Int(_) | Value::Decimal(_) | Value::DateTime(..))
                        });
                        (!values.is_empty() && comparable).then(|| Rc::from(values))
                    }
                    None => None,
                };
            if !(ordered || seek_value.is_some() || (filtered && spec.order.is_empty())) {
                continue;
            }
            self.w.db.tables[tid as usize].file_entries();
            let t = &self.w.db.tables[tid as usize];
            let ix = &t.indexes[k];
            let high = t.index_high_water.get(&ix.id).copied().unwrap_or(0);
            if snapshot.is_none() {
                // Locking and dirty readers: the index's entries as they are now.
                let entries = t.entries(k);
                // The depth follows the most entries the index held, or the entries this
                // seek finds now, whichever is more (the count only when it can matter).
                let ranged = seek_value.as_ref().is_some_and(|b| b[0].0 != BinaryOp::Eq);
                let found = if entries.len() as u32 <= high && !ranged {
                    0
                } else {
                    let seek = seek_value.as_deref();
                    (entries.iter())
                        .filter(|(key, _)| seek.is_none_or(|b| within(key.lead(), b)))
                        .count() as u32
                };
                let (leaves, mut depth) = t.index_shape(ix, high.max(found));
                if ranged {
                    // Along the leaf pages the range spans, after the first.
                    let per_leaf = (high.max(found) / leaves.max(1)).max(1);
                    depth += found.saturating_sub(1) / per_leaf;
                }
                let cand = Candidates::Index {
                    index: k,
                    seek: seek_value,
                    after: None,
                };
                return Ok(AccessPath {
                    depth,
                    index: Some(k),
                    canon,
                    ..AccessPath::new(Access::IndexSeek(ix.name.clone()), cand)
                });
            }
            let members = self.index_members(tid, ix, snapshot);
            let mut cand: Vec<(Vec<Value>, RowId)> = Vec::new();
            for (slot, key) in members {
                if seek_value.as_ref().is_some_and(|b| !within(&key[0], b)) {
                    continue;
                }
                cand.push((key, slot));
            }
            let desc: Vec<bool> = ix.columns.iter().map(|(_, d)| *d).collect();
            // Stable: equal index keys stay in clustered-key order (the row locator).
            let nulls = nulls_high(&[], self.rules.nulls_sort_high());
            cand.sort_by(|a, b| cmp_keys(&a.0, &b.0, &desc, nulls));
            let t = &self.w.db.tables[tid as usize];
            let (_, depth) = t.index_shape(ix, high.max(cand.len() as u32));
            let cand = listed(cand.into_iter().map(|c| c.1).collect());
            return Ok(AccessPath {
                depth,
                index: Some(k),
                canon,
                ..AccessPath::new(Access::IndexSeek(ix.name.clone()), cand)
            });
        }
        // A range on the clustered key's leading column is a seek over the range's keys;
        // anything else a clustered scan. Either is sorted when an order is asked for.
        let range = match has_hint(spec.hints, HintKind::ForceScan) {
            true => None,
            false => self.clustered_range(i, tid, &preds, scope, outer)?,
        };
        let (access, slots, range) = match range {
            Some((slots, r)) => (Access::ClusteredSeek, slots, Some(r)),
            None => {
                let t = &self.w.db.tables[tid as usize];
                let mut slots: Vec<RowId> = t.clustered_order().collect();
                // A heap is read in the order its versions were written: a row an UPDATE
                // wrote again comes after the others. (With an ORDER BY, the sort
                // decides.) A condition on the key's column is read through its index
                // (the server's bitmap scan, which meets rows where they were first
                // written): key order stands for that.
                let on_key = || {
                    t.key.first().is_some_and(|&k| {
                        let name = t.columns[k].name.as_str();
                        preds.iter().any(|p| indexable_on(p, name))
                    })
                };
                if t.heap.is_some() && spec.order.is_empty() && !on_key() {
                    // A locking read meets rows where its statement's snapshot sees
                    // them, and keeps that order when it runs again after a wait.
                    let seq = snapshot.map_or(self.w.sessions[i].statement_seq, |(seq, _)| seq);
                    let own = self.w.sessions[i].txn.as_ref().map(|t| t.id);
                    slots.sort_by_key(|&s| t.slots[s].heap_position(seq, own));
                }
                (Access::ClusteredScan, slots, None)
            }
        };
        let slots = self.in_order(i, slots, spec, (scope, outer), snapshot)?;
        Ok(AccessPath {
            range,
            ..AccessPath::new(access, listed(slots))
        })
    }

    /// A clustered path's rows sorted by the statement's ORDER BY (as they are without
    /// one).
    fn in_order(
        &mut self,
        i: usize,
        slots: Vec<RowId>,
        spec: &ScanSpec,
        (scope, outer): (&Scope, Option<&RowCtx>),
        snapshot: Option<(u64, Option<u32>)>,
    ) -> Result<Vec<RowId>, Interrupt> {
        if spec.order.is_empty() {
            return Ok(slots);
        }
        let tid = spec.table;
        // The order is the one of the versions the statement reads: a versioned reader's
        // snapshot, and in a dialect that versions reads, a locking statement's too (it
        // sorts the rows it sees, then locks them in that order; one it waited for is
        // re-checked, not re-sorted). A locking reader sorts the newest versions, as it
        // reads those once their locks are granted.
        let seen = snapshot.or_else(|| {
            self.rules.versioned_reads().then(|| {
                let own = self.w.sessions[i].txn.as_ref().map(|t| t.id);
                (self.w.sessions[i].statement_seq, own)
            })
        });
        let mut keyed = Vec::with_capacity(slots.len());
        for slot in slots {
            let row = {
                let s = &self.w.db.tables[tid as usize].slots[slot];
                seen.and_then(|(seq, own)| s.visible_at(seq, own))
                    .or_else(|| s.latest())
                    .or_else(|| s.latest_committed())
                    .cloned()
            };
            let Some(row) = row else { continue };
            let mut key = Vec::new();
            for o in spec.order {
                let ctx = RowCtx {
                    scope,
                    row: &row,
                    outer,
                    group: None,
                };
                key.push(self.eval(i, &o.expr, Some(&ctx))?);
            }
            keyed.push((key, slot));
        }
        let desc: Vec<bool> = spec.order.iter().map(|o| o.desc).collect();
        let high = nulls_high(spec.order, self.rules.nulls_sort_high());
        keyed.sort_by(|a, b| cmp_keys(&a.0, &b.0, &desc, high));
        Ok(keyed.into_iter().map(|k| k.1).collect())
    }

    /// The values of `key IN (list)` or `key IN (subquery)` on a one-column clustered
    /// key, where the dialect seeks them (`Rules::clustered_range_seeks`): a list whose
    /// items name no column of the scan, or a subquery that reads nothing of it (run
    /// now, and once for the statement: its rows are kept). `None` where neither is.
    fn in_values(
        &mut self,
        i: usize,
        tid: u32,
        (preds, scope, outer): (&[&Expr], &Scope, Option<&RowCtx>),
    ) -> Result<Option<Vec<Value>>, Interrupt> {
        let wanted = |p: &&&Expr| {
            matches!(
                p.kind,
                ExprKind::InList { negated: false, .. }
                    | ExprKind::InSubquery { negated: false, .. }
            )
        };
        if !preds.iter().any(|p| wanted(&p)) {
            return Ok(None);
        }
        let t = &self.w.db.tables[tid as usize];
        if !self.rules.clustered_range_seeks()
            || !self.rules.subquery_once()
            || !t.hash_key.is_empty()
        {
            return Ok(None);
        }
        let column = t.columns[t.key[0]].name.clone();
        let is_key = |e: &Expr| {
            matches!(&e.kind, ExprKind::Column(n)
                if n.name().value.eq_ignore_ascii_case(&column)
                    && scope.resolve(n).ok().flatten().is_some())
        };
        for p in preds {
            match &p.kind {
                ExprKind::InList {
                    expr,
                    list,
                    negated: false,
                } if is_key(expr) && list.iter().all(|x| !mentions_scope(x, scope)) => {
                    let mut values = Vec::with_capacity(list.len());
                    for x in list {
                        values.push(self.eval(i, x, outer)?);
                    }
                    return Ok(Some(values));
                }
                ExprKind::InSubquery {
                    expr,
                    query,
                    negated: false,
                } if is_key(expr) && self.reads_only_its_own(query) => {
                    let out = self.subquery_in_expr(i, query, outer)?;
                    if out.columns.len() != 1 {
                        // The predicate fails on the first row, as it would on a scan.
                        return Ok(None);
                    }
                    let values = out.rows.into_iter().filter_map(|r| r.into_iter().next());
                    return Ok(Some(values.collect()));
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// Whether every column `q` names is one of the base tables in its own FROM (so it
    /// reads nothing of a query around it), judged by names alone: a nested subquery,
    /// a CTE, a set operation or a derived table counts as not.
    fn reads_only_its_own(&self, q: &Select) -> bool {
        if !q.ctes.is_empty() || q.set_op.is_some() {
            return false;
        }
        let mut tables = Vec::new();
        for tr in &q.from {
            for f in std::iter::once(&tr.factor).chain(tr.joins.iter().map(|j| &j.factor)) {
                let TableFactor::Table { name, alias, .. } = f else {
                    return false;
                };
                let Some(tid) = self.w.db.table_id(&name.name().value) else {
                    return false;
                };
                let binding = alias.as_ref().unwrap_or(name.name());
                tables.push((binding.value.clone(), tid));
            }
        }
        let mut exprs: Vec<&Expr> = Vec::new();
        for item in &q.items {
            match item {
                SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => exprs.push(expr),
                SelectItem::Wildcard { .. } => {}
            }
        }
        exprs.extend(q.where_clause.iter().chain(&q.group_by).chain(&q.having));
        exprs.extend(q.order_by.iter().map(|o| &o.expr));
        exprs.extend(q.top.iter().map(|t| &t.count));
        exprs.extend(
            q.from
                .iter()
                .flat_map(|tr| &tr.joins)
                .filter_map(|j| j.on.as_ref()),
        );
        let mut refs = Vec::new();
        for e in exprs {
            if crate::syntax::has_subquery(e) {
                return false;
            }
            crate::syntax::column_refs(e, &mut refs);
        }
        refs.iter().all(|n| {
            let column = &n.name().value;
            let has = |tid: u32| self.w.db.tables[tid as usize].column(column).is_some();
            match n.parts.len() {
                1 => tables.iter().any(|(_, tid)| has(*tid)),
                k => {
                    let qualifier = &n.parts[k - 2].value;
                    (tables.iter()).any(|(b, tid)| b.eq_ignore_ascii_case(qualifier) && has(*tid))
                }
            }
        })
    }

    /// Seeks each of `values` in a one-column clustered key, in key order, each once:
    /// the rows found, and the ranges the others fall in.
    fn seek_each(&mut self, tid: u32, values: Vec<Value>) -> Result<SeekEach, Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        let ty = &t.columns[t.key[0]].ty;
        let mut keys = Vec::with_capacity(values.len());
        for v in values {
            match convert(&v, ty, None) {
                // NULL is no key: no seek.
                Ok(Value::Null) => {}
                Ok(k) => keys.push(k),
                Err(e) if matches!(v, Value::Text(_)) && numeric(ty) => return Err((*e).into()),
                Err(_) => {}
            }
        }
        keys.sort_by(crate::value::sort_cmp);
        keys.dedup_by(|a, b| crate::value::sort_cmp(a, b) == Ordering::Equal);
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for k in &keys {
            let ord = crate::state::storage::OrdKey(Rc::new([k.clone()]), Rc::new([false]));
            match t.find_key(&ord) {
                Some(slot) => found.push(slot),
                None if self.w.tracing => missing.push(ord),
                None => {}
            }
        }
        Ok((keys.len() as u64, found, missing))
    }

    /// A clustered range seek, where the dialect has one: the bounds the predicate puts
    /// on a numeric clustered key's leading column (`id > 2`, `id BETWEEN 3 AND 7`,
    /// `id <= @n`), and the slots whose key lies in them, in key order. `None` when no
    /// bound applies, or one is not a number (a scan then converts or fails as the
    /// comparison does).
    fn clustered_range(
        &mut self,
        i: usize,
        tid: u32,
        preds: &[&Expr],
        scope: &Scope,
        outer: Option<&RowCtx>,
    ) -> Result<Option<(Vec<RowId>, KeyRange)>, Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        // Outside a traced run nothing is locked or counted: a scan that filters every
        // row gives the same rows, without sorting out each row's versions first.
        if !self.w.tracing
            || !self.rules.clustered_range_seeks()
            || t.key.is_empty()
            || !t.hash_key.is_empty()
            || !numeric(&t.columns[t.key[0]].ty)
        {
            return Ok(None);
        }
        let kc = t.key[0];
        let bounds = range_bounds(preds, &t.columns[kc].name, scope);
        if bounds.is_empty() {
            return Ok(None);
        }
        let mut values = Vec::with_capacity(bounds.len());
        let mut null = false;
        for (op, e) in bounds {
            let v = self.eval(i, e, outer)?;
            null |= v.is_null();
            if !matches!(v, Value::Int(_) | Value::Decimal(_) | Value::Null) {
                return Ok(None);
            }
            values.push((op, v));
        }
        if null {
            // No key compares with NULL: the seek reads nothing.
            let range = KeyRange {
                first: 0,
                last: 0,
                next: None,
            };
            return Ok(Some((Vec::new(), range)));
        }
        let side = |key: &Value| -> Side {
            let mut side = Side::Inside;
            for (op, v) in &values {
                let Some(o) = compare(key, v) else {
                    return Side::Inside;
                };
                let (below, above) = match op {
                    BinaryOp::Gt => (o != Ordering::Greater, false),
                    BinaryOp::Ge => (o == Ordering::Less, false),
                    BinaryOp::Lt => (false, o != Ordering::Less),
                    BinaryOp::Le => (false, o == Ordering::Greater),
                    _ => (o == Ordering::Less, o == Ordering::Greater),
                };
                if below {
                    return Side::Below;
                }
                if above {
                    side = Side::Above;
                }
            }
            side
        };
        let t = &self.w.db.tables[tid as usize];
        let mut slots = Vec::new();
        let (mut first, mut last, mut next) = (None, t.order.len(), None);
        for (pos, slot) in t.clustered_order().enumerate() {
            // Any of the slot's versions: a versioned reader may see an older key.
            let s = &t.slots[slot];
            let mut sides = (s.committed.iter().map(|(_, d)| d))
                .chain(s.pending.iter().map(|(_, d)| d))
                .flatten()
                .map(|row| side(&row[kc]));
            let Some(one) = sides.next() else { continue };
            let all = sides.try_fold(one, |a, b| (a == b).then_some(b));
            match all {
                Some(Side::Below) => continue,
                Some(Side::Above) => {
                    first.get_or_insert(pos);
                    last = pos;
                    next = Some(slot);
                    break;
                }
                // Inside, or versions on either side of it: read.
                _ => {
                    first.get_or_insert(pos);
                    last = pos;
                    slots.push(slot);
                }
            }
        }
        let first = first.unwrap_or(last);
        Ok(Some((slots, KeyRange { first, last, next })))
    }

    /// Rows in a nonclustered index: those whose newest or committed data passes its filter
    /// (an uncommitted change out of the filter leaves a locked entry behind).
    pub(crate) fn index_members(
        &self,
        tid: u32,
        ix: &crate::state::storage::Index,
        snapshot: Option<(u64, Option<u32>)>,
    ) -> Vec<(RowId, Vec<Value>)> {
        // Returns each member's index key values, in clustered order.
        let t = &self.w.db.tables[tid as usize];
        let mut out = Vec::new();
        for slot in t.clustered_order() {
            let s = &t.slots[slot];
            // A versioned reader sees the index as of its snapshot.
            let mut pick = snapshot
                .and_then(|(seq, own)| s.visible_at(seq, own))
                .filter(|r| t.filter_passes(ix, r));
            if pick.is_none() {
                pick = s.latest().filter(|r| t.filter_passes(ix, r));
            }
            if pick.is_none() && s.pending.is_some() {
                pick = s.latest_committed().filter(|r| t.filter_passes(ix, r));
            }
            if let Some(row) = pick {
                out.push((
                    slot,
                    ix.columns.iter().map(|(c, _)| row[*c].clone()).collect(),
                ));
            }
        }
        out
    }

    // -----------------------------------------------------------------------------------
    // Writes

    /// Deletes a row in the current transaction.
    pub(crate) fn delete_row(&mut self, i: usize, tid: u32, slot: RowId) {
        self.write_row(i, tid, slot, None);
    }

    /// Writes a new version of a row in the current transaction, keeping undo and the
    /// index sizes the page model needs.
    pub(crate) fn write_row(&mut self, i: usize, tid: u32, slot: RowId, data: Option<Vec<Value>>) {
        self.write_version(i, tid, slot, data, false);
    }

    /// [`Self::write_row`], saying whether the version counts as a key update though it
    /// keeps the key (`RowSlot::pending_key_update`).
    fn write_version(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        data: Option<Vec<Value>>,
        key_update: bool,
    ) {
        let txn = self.ensure_txn(i);
        if let Some(t) = &mut self.out.touched {
            t.written.push((tid, slot));
        }
        let t = &mut self.w.db.tables[tid as usize];
        let mut pos = None;
        if let (Some(row), true) = (&data, t.heap.is_some()) {
            let bytes = self.rules.version_bytes(&t.columns, row);
            pos = t.heap_write(bytes);
        }
        let (prev_pos, prev_key_update) = {
            let s = &t.slots[slot];
            (s.pending_pos, s.pending_key_update)
        };
        let prev = t.set_pending(slot, Some((txn, data)));
        if let Some(pos) = pos {
            t.slot_mut(slot).pending_pos = pos;
        }
        if key_update != prev_key_update {
            t.slot_mut(slot).pending_key_update = key_update;
        }
        if let Some(tx) = self.w.sessions[i].txn.as_mut() {
            tx.undo.push(Undo {
                table: tid,
                slot,
                prev,
                prev_pos,
                prev_key_update,
                table_before: None,
            });
            tx.rows_written += 1;
        }
    }

    fn check_triggers_output(
        &self,
        tid: u32,
        output: Option<&Output>,
        event: DmlEvent,
    ) -> Result<(), SqlError> {
        let t = &self.w.db.tables[tid as usize];
        if output.is_some_and(|o| o.into.is_none())
            && t.triggers
                .iter()
                .any(|tr| tr.enabled && tr.events.contains(&event))
        {
            return Err(SqlError::output_with_trigger(&t.name));
        }
        Ok(())
    }

    fn check_set_options(&self, i: usize, tid: u32, verb: &str) -> Result<(), SqlError> {
        let t = &self.w.db.tables[tid as usize];
        if !self.w.sessions[i].options.quoted_identifier
            && t.indexes.iter().any(|ix| ix.filter.is_some())
        {
            return Err(SqlError::set_options(verb, "QUOTED_IDENTIFIER"));
        }
        Ok(())
    }

    /// Index maintenance reads for a row changing from `old` to `new`.
    fn maintenance_reads(&mut self, tid: u32, old: Option<&[Value]>, new: Option<&[Value]>) -> u64 {
        if !self.w.tracing {
            return 0;
        }
        let t = &self.w.db.tables[tid as usize];
        let mut reads = 0;
        for ix in &t.indexes {
            let was = old.is_some_and(|r| t.filter_passes(ix, r));
            let is = new.is_some_and(|r| t.filter_passes(ix, r));
            let key_changed = match (old, new) {
                (Some(a), Some(b)) => ix
                    .columns
                    .iter()
                    .map(|(c, _)| *c)
                    .chain(ix.include.iter().copied())
                    .any(|c| {
                        compare(&a[c], &b[c]) != Some(Ordering::Equal)
                            && !(a[c].is_null() && b[c].is_null())
                    }),
                _ => true,
            };
            if !was && !is || (was && is && !key_changed) {
                continue;
            }
            let high = t.index_high_water.get(&ix.id).copied().unwrap_or(0);
            let (_, depth) = t.index_shape(ix, high);
            reads += depth as u64 * (was as u64 + is as u64);
        }
        reads
    }

    pub(crate) fn exec_insert(
        &mut self,
        i: usize,
        ins: &sql::ast::Insert,
    ) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        let pushed = ins.ctes.len();
        self.push_ctes(i, &ins.ctes)?;
        let r = self.insert_inner(i, ins);
        self.pop_ctes(pushed);
        r
    }

    fn insert_inner(&mut self, i: usize, ins: &sql::ast::Insert) -> Result<Flow, Interrupt> {
        let (tid, is_var) = match &ins.target {
            TableFactor::Table { name, hints, .. } => {
                if has_hint(hints, HintKind::ReadPast) {
                    return Err(SqlError::generic(
                        4102,
                        15,
                        "The READPAST lock hint is only allowed on target tables of UPDATE and DELETE and on tables specified in an explicit FROM clause.",
                    )
                    .into());
                }
                (self.table_id(name)?, None)
            }
            TableFactor::TableVar { name, .. } => (u32::MAX, Some(name.value.to_ascii_lowercase())),
            _ => return Err(SqlError::not_simulated("INSERT into this kind of target").into()),
        };
        if is_var.is_none() {
            self.check_triggers_output(tid, ins.output.as_ref(), DmlEvent::Insert)?;
            self.check_set_options(i, tid, "INSERT")?;
        }
        let columns: std::rc::Rc<[Column]> = match &is_var {
            Some(v) => self
                .frame(i)
                .table_vars
                .get(v)
                .ok_or_else(|| SqlError::undeclared_variable(v))?
                .columns
                .clone(),
            None => self.w.db.tables[tid as usize].columns.clone(),
        };
        // IDENTITY_INSERT ON takes values for the identity only through a column list.
        if is_var.is_none()
            && ins.columns.is_empty()
            && self.w.sessions[i].options.identity_insert == Some(tid)
        {
            let name = &self.w.db.tables[tid as usize].name;
            return Err(SqlError::identity_needs_column_list(name).into());
        }
        // Without a column list, an identity that is only a default is listed too (a
        // value or DEFAULT goes in it); SQL Server's is left out.
        let targets: Vec<usize> = if ins.columns.is_empty() && self.rules.identity_is_default() {
            (0..columns.len()).collect()
        } else if ins.columns.is_empty() {
            let identity = match &is_var {
                Some(v) => self
                    .frame(i)
                    .table_vars
                    .get(v)
                    .and_then(|t| t.identity.as_ref().map(|x| x.column)),
                None => self.w.db.tables[tid as usize]
                    .identity
                    .as_ref()
                    .map(|x| x.column),
            };
            (0..columns.len())
                .filter(|c| Some(*c) != identity)
                .collect()
        } else {
            let mut v = Vec::new();
            for c in &ins.columns {
                v.push(
                    columns
                        .iter()
                        .position(|x| x.name.eq_ignore_ascii_case(&c.value))
                        .ok_or_else(|| match &is_var {
                            Some(_) => SqlError::invalid_column(&c.value),
                            None => SqlError::invalid_target_column(
                                &c.value,
                                &self.w.db.tables[tid as usize].name,
                            ),
                        })?,
                );
            }
            v
        };
        // The positions of each row's DEFAULTs (none, mostly: no list is made).
        let mut defaults: Vec<Vec<usize>> = Vec::new();
        let source: Vec<Vec<Value>> = match &ins.source {
            InsertSource::Values(rows) => {
                let mut out = Vec::with_capacity(rows.len());
                for (k, r) in rows.iter().enumerate() {
                    let mut row = Vec::with_capacity(r.len());
                    for (p, e) in r.iter().enumerate() {
                        if matches!(e.kind, ExprKind::Default) {
                            defaults.resize(rows.len(), Vec::new());
                            defaults[k].push(p);
                            row.push(Value::Null);
                        } else {
                            row.push(self.eval(i, e, None)?);
                        }
                    }
                    out.push(row);
                }
                out
            }
            InsertSource::Select(s) => self.run_select(i, s, None)?.rows,
            InsertSource::DefaultValues => vec![Vec::new()],
            InsertSource::Exec(_) => return Err(SqlError::not_simulated("INSERT ... EXEC").into()),
            InsertSource::SelectAndConsume(c) => {
                // T2: the target table takes a table-level WRITE lock first.
                self.lock(i, Resource::Object { table: tid }, LockMode::X, false)?;
                let rules = self.rules;
                vec![rules.consume(self, i, c)?.1]
            }
        };
        // Without a column list, a dialect may take fewer values for the first columns
        // (the rest get their defaults).
        let fills = ins.columns.is_empty() && self.rules.values_fill_trailing_defaults();
        for r in &source {
            if !matches!(ins.source, InsertSource::DefaultValues)
                && r.len() != targets.len()
                && !(fills && r.len() < targets.len())
            {
                return Err(SqlError::insert_count_mismatch(
                    !ins.columns.is_empty(),
                    r.len() > targets.len(),
                )
                .into());
            }
        }
        // The inserted rows are kept only for triggers and OUTPUT.
        let keep =
            ins.output.is_some() || (is_var.is_none() && self.has_triggers(tid, DmlEvent::Insert));
        // The rows written, for the foreign keys (an upsert's updates with their old row).
        // (None without keys: an empty vector's drop costs a bulk insert's every row.)
        let fks = is_var.is_none() && self.has_foreign_keys(tid);
        let mut written: Option<Vec<foreign_keys::Written>> = fks.then(Vec::new);
        let mut inserted = Vec::new();
        let mut n = 0u64;
        if let (Some(c), None) = (&ins.on_conflict, &is_var) {
            self.check_arbiters(tid, c)?;
        }
        let mut upsert = match (&ins.on_conflict, &ins.target) {
            (
                Some(sql::ast::OnConflict {
                    update: Some(update),
                    ..
                }),
                TableFactor::Table {
                    name, alias, hints, ..
                },
            ) => Some(upsert::Upsert {
                update,
                binding: alias
                    .as_ref()
                    .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase()),
                hints,
                touched: Vec::new(),
                first_new_slot: self.w.db.tables[tid as usize].slots.len(),
            }),
            _ => None,
        };
        for (k, r) in source.into_iter().enumerate() {
            n += 1;
            let held = match &is_var {
                Some(v) => self.frame(i).table_vars.get(v).map_or(0, |t| t.slots.len()),
                None => self.w.db.tables[tid as usize].slots.len(),
            };
            if held >= crate::exec::MAX_ROWS {
                return Err(SqlError::limit(format!(
                    "a table holds {} rows, the most the simulator keeps in one table",
                    crate::exec::MAX_ROWS
                ))
                .into());
            }
            let row = match defaults.get(k).filter(|d| !d.is_empty()) {
                // A DEFAULT leaves its column out, as though it were not listed.
                Some(d) => {
                    let (t, v): (Vec<usize>, Vec<Value>) = (targets.iter().copied().zip(r))
                        .enumerate()
                        .filter(|(p, _)| !d.contains(p))
                        .map(|(_, tv)| tv)
                        .unzip();
                    self.build_row(i, tid, is_var.as_deref(), &columns, &t, &v)?
                }
                None => self.build_row(i, tid, is_var.as_deref(), &columns, &targets, &r)?,
            };
            match &is_var {
                Some(v) => {
                    let txn = 0;
                    if let Some(t) = self.frame_mut(i).table_vars.get_mut(v) {
                        let slot = t.insert_slot(txn, row.clone());
                        // Table variables ignore transactions: commit at once.
                        let s = t.slot_mut(slot);
                        if let Some((_, data)) = s.pending.take() {
                            s.committed.push((0, data));
                        }
                    }
                }
                None => {
                    let hints = match &ins.target {
                        TableFactor::Table { hints, .. } => hints.as_slice(),
                        _ => &[],
                    };
                    if let Some(c) = &ins.on_conflict {
                        // As the server's speculative insertion: the arbiter indexes are
                        // checked first (waiting for an uncommitted holder of the key), and
                        // a row one of them already holds is left out.
                        let found = self.nowait(i, hints, |x| {
                            x.check_primary_key(i, tid, &row)?;
                            x.check_unique(i, tid, &row, None)
                        });
                        match found {
                            Err(Interrupt::Error(e)) if arbiter(&e, c) => {
                                // DO UPDATE: the row holding the key is updated instead
                                // (and returned); DO NOTHING leaves the proposed row out.
                                let updated = match upsert.as_mut() {
                                    Some(up) => self.conflict_update(i, tid, up, &e, &row)?,
                                    None => {
                                        self.conflict_nothing(i, tid, &e, &row)?;
                                        None
                                    }
                                };
                                match updated {
                                    Some((old, new)) => {
                                        if let Some(w) = written.as_mut() {
                                            w.push((Some(old), Some(new.clone())));
                                        }
                                        if keep {
                                            inserted.push(new);
                                        }
                                    }
                                    None => n -= 1,
                                }
                                continue;
                            }
                            other => other?,
                        }
                    }
                    let copy = keep.then(|| row.clone());
                    if let Some(w) = written.as_mut() {
                        w.push((None, Some(row.clone())));
                    }
                    // A row this statement inserts is one DO UPDATE may not touch again,
                    // also where it took the slot of a key deleted before.
                    let key = upsert.as_ref().map(|_| {
                        let t = &self.w.db.tables[tid as usize];
                        t.key_of(&row, t.slots.len())
                    });
                    self.nowait(i, hints, |x| x.insert_row(i, tid, row))?;
                    if let (Some(up), Some(key)) = (upsert.as_mut(), key) {
                        if let Some(slot) = self.w.db.tables[tid as usize].find_key(&key) {
                            up.touched.push(slot);
                        }
                    }
                    inserted.extend(copy);
                    continue;
                }
            }
            if keep {
                inserted.push(row);
            }
        }
        if let Some(w) = &written {
            self.keep_foreign_keys(i, tid, w)?;
        }
        if is_var.is_none() && self.has_triggers(tid, DmlEvent::Insert) {
            self.fire_triggers(i, tid, DmlEvent::Insert, inserted.clone(), Vec::new())?;
        }
        if let Some(o) = &ins.output {
            let rows: Vec<(Vec<Value>, Vec<Value>)> = inserted
                .iter()
                .map(|r| (r.clone(), vec![Value::Null; r.len()]))
                .collect();
            self.emit_output(i, o, &columns, rows, None)?;
        }
        Ok(self.wrote(i, CostKind::Insert, n))
    }

    fn build_row(
        &mut self,
        i: usize,
        tid: u32,
        var: Option<&str>,
        columns: &[Column],
        targets: &[usize],
        given: &[Value],
    ) -> Result<Vec<Value>, Interrupt> {
        let table_name: Rc<str> = match var {
            Some(v) => v.into(),
            None => self.w.db.tables[tid as usize].name.clone(),
        };
        let mut row = vec![Value::Null; columns.len()];
        // Which columns have a value: on the stack for the usual table (a row per INSERT).
        let (mut few, mut many) = ([false; 32], Vec::new());
        let set: &mut [bool] = if columns.len() <= few.len() {
            &mut few[..columns.len()]
        } else {
            many.resize(columns.len(), false);
            &mut many
        };
        for (&c, v) in targets.iter().zip(given) {
            row[c] = self.convert(v, &columns[c].ty, Some((&table_name, &columns[c].name)))?;
            set[c] = true;
        }
        // Where an identity is only a default (serial), a value given is kept and the
        // counter does not move.
        let given = match var {
            None => match &self.w.db.tables[tid as usize].identity {
                Some(id) if set[id.column] => Some((id.column, id.always)),
                _ => None,
            },
            Some(_) => None,
        };
        // GENERATED ALWAYS refuses a value, before the counter moves.
        if let (Some((c, true)), true) = (given, self.rules.identity_is_default()) {
            return Err(self
                .rules
                .identity_written(&table_name, &columns[c].name, true)
                .into());
        }
        let given_identity = self.rules.identity_is_default() && given.is_some();
        let column = match var {
            _ if given_identity => None,
            Some(v) => self
                .frame_mut(i)
                .table_vars
                .get(v)
                .and_then(|t| t.identity.as_ref())
                .map(|id| id.column),
            None => self.w.db.tables[tid as usize]
                .identity
                .as_ref()
                .map(|id| id.column),
        };
        // Under IDENTITY_INSERT ON the identity takes the value given, which must be
        // there, and the counter moves past it (as SQL Server's current identity
        // follows the highest value inserted).
        let explicit = var.is_none() && self.w.sessions[i].options.identity_insert == Some(tid);
        if let (Some(c), true) = (column, explicit) {
            if !set[c] {
                return Err(SqlError::identity_value_required(&table_name).into());
            }
            if let Some(v) = row[c].as_i64() {
                let id = (self.w.db.tables[tid as usize].identity.as_mut())
                    .expect("the column is the identity");
                let past = v.saturating_add(id.increment);
                if (id.increment > 0 && past > id.next) || (id.increment < 0 && past < id.next) {
                    id.next = past;
                }
                self.frame_mut(i).scope_identity = Some(v);
            }
        }
        let column = column.filter(|_| !explicit);
        // A value given for the identity column fails as the statement compiles, so
        // no identity value is used up (a constraint's failure uses one).
        if column.is_some_and(|c| set[c]) {
            return Err(SqlError::generic(
                544,
                16,
                format!("Cannot insert explicit value for identity column in table '{table_name}' when IDENTITY_INSERT is set to OFF."),
            )
            .into());
        }
        let identity = column.map(|c| (c, self.take_identity(i, tid, var)));
        if let Some((c, n)) = identity {
            if convert(&Value::Int(n), &columns[c].ty, None).is_err() {
                return Err(SqlError::identity_overflow(&columns[c].ty).into());
            }
            row[c] = Value::Int(n);
            set[c] = true;
            if var.is_none() {
                self.frame_mut(i).scope_identity = Some(n);
            }
        }
        for (c, col) in columns.iter().enumerate() {
            if !set[c] {
                if let Some(d) = &col.default {
                    let v = self.eval(i, d, None)?;
                    row[c] = self.convert(&v, &col.ty, Some((&table_name, &col.name)))?;
                }
            }
        }
        // Checked once the row is whole, which the error then shows.
        if let Some(col) = (columns.iter().zip(&row))
            .find_map(|(col, v)| (v.is_null() && !col.nullable).then_some(col))
        {
            return Err(SqlError::null_not_allowed(&col.name, &table_name, "INSERT")
                .with_failing_row(row_text(&row))
                .into());
        }
        if var.is_none() {
            self.check_constraints(i, tid, &row, "INSERT")?;
        }
        Ok(row)
    }

    /// Refuses a row one of table `tid`'s CHECK constraints finds false (547); unknown
    /// (NULL) passes, as in every engine.
    fn check_constraints(
        &mut self,
        i: usize,
        tid: u32,
        row: &[Value],
        action: &str,
    ) -> Result<(), Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        if t.checks.is_empty() {
            return Ok(());
        }
        let checks = t.checks.clone();
        let name = t.name.clone();
        let mut scope = Scope::default();
        let lower = name.to_ascii_lowercase();
        scope.push(lower.clone(), Some(lower), t.column_names.clone());
        let ctx = RowCtx::new(&scope, row);
        for c in checks.iter() {
            let v = self.eval(i, &c.expr, Some(&ctx))?;
            if !v.is_null() && !v.is_true() {
                return Err(
                    SqlError::check_violated(action, &c.name, &name, c.column.as_deref())
                        .with_failing_row(row_text(row))
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// The next identity value of table `tid` (or table variable `var`) for session `i`'s
    /// statement: the one it took before, when the statement runs again after a lock
    /// wait, else a new one from the counter.
    fn take_identity(&mut self, i: usize, tid: u32, var: Option<&str>) -> i64 {
        let s = &mut self.w.sessions[i];
        let k = s.identities_used;
        if let Some((t, v, n)) = s.identities.get(k) {
            if *t == tid && v.as_deref() == var {
                s.identities_used += 1;
                return *n;
            }
            // The statement took another path this time: what it took before is spent.
            s.identities.truncate(k);
        }
        let id = match var {
            Some(v) => self
                .frame_mut(i)
                .table_vars
                .get_mut(v)
                .and_then(|t| t.identity.as_mut()),
            None => self.w.db.tables[tid as usize].identity.as_mut(),
        }
        .expect("the caller found the identity");
        let n = id.next;
        id.next = id.next.saturating_add(id.increment);
        let s = &mut self.w.sessions[i];
        s.identities.push((tid, var.map(Box::from), n));
        s.identities_used += 1;
        n
    }

    fn insert_row(&mut self, i: usize, tid: u32, row: Vec<Value>) -> Result<(), Interrupt> {
        let key = {
            let t = &self.w.db.tables[tid as usize];
            t.key_of(&row, t.slots.len())
        };
        let existing = self.w.db.tables[tid as usize].find_key(&key);
        // The key's text names the lock and a duplicate; setup takes no locks.
        let key_text = |x: &Self, row: &[Value]| {
            let t = &x.w.db.tables[tid as usize];
            t.key_text_of(Some(row), t.slots.len())
        };
        self.lock(i, Resource::Object { table: tid }, LockMode::IX, false)?;
        if !self.w.ssi.xacts.is_empty() {
            self.ssi_insert(i, tid, false)?;
        }
        // A SERIALIZABLE reader in another transaction holds the key range the new key
        // falls in (a scan to the end, the end of the index; a key it did not find, the
        // range below the next key): the insert waits for it (SQL Server's RangeI-N
        // test, held no longer than the test), and two such readers that both insert
        // deadlock.
        if self.w.tracing && self.w.db.tables[tid as usize].hash_key.is_empty() {
            let end = Resource::Key {
                table: tid,
                index: 1,
                key: self.w.db.tables[tid as usize].range_text(&key),
            };
            let owner = self.ensure_txn(i);
            if let Some(tested) = self.w.sessions[i].range_test.take() {
                // The insert waited for a range and runs again: the test is passed, and
                // SQL Server holds it no longer (RangeI-N is released at once).
                let grants = self.w.locks.release(owner, &tested);
                self.w.sessions[i].fresh_locks.remove(&tested);
                if self.recording() {
                    let name = self.w.sessions[i].name.clone();
                    let resource = self.w.resource_text(&tested);
                    self.push(Event::LockReleased {
                        session: name,
                        resource,
                        mode: LockMode::X,
                        reason: crate::event::ReleaseReason::EndOfStatement,
                        mode_name: None,
                    });
                }
                self.wake(grants);
            }
            // Another insert's test (X here) lets this one by, as RangeI-N does RangeI-N.
            let reader = |(o, m, _): &(crate::state::locks::OwnerId, LockMode, _)| {
                *o != owner && *m != LockMode::X
            };
            if self.w.locks.holders(&end).iter().any(reader) {
                self.w.sessions[i].range_test = Some(end.clone());
                self.lock(i, end, LockMode::X, false)?;
            }
        }
        // Where the check waits for writers only, a key whose row is there (and stays,
        // once its writer is done) is a duplicate before any lock on the new key: a row
        // lock on it makes nobody wait.
        if let Some(slot) = existing.filter(|_| self.rules.unique_waits_for_writers_only()) {
            self.wait_for_key_writer(i, tid, slot)?;
            let t = &self.w.db.tables[tid as usize];
            if t.slots[slot].latest().is_some() {
                let clash = primary_key_clash(t, &row, t.slots.len());
                self.before_duplicate(i, tid)?;
                return Err(clash.into());
            }
        }
        let res = {
            let t = &self.w.db.tables[tid as usize];
            if !self.w.tracing {
                None
            } else if t.hash_key.is_empty() {
                Some(Resource::Key {
                    table: tid,
                    index: 1,
                    key: key_text(self, &row),
                })
            } else {
                Some(Resource::RowHash {
                    table: tid,
                    hash: t.row_hash(&row),
                })
            }
        };
        if let Some(res) = res {
            self.lock(i, res, LockMode::X, false)?;
        }
        let t = &self.w.db.tables[tid as usize];
        if let Some(slot) = existing {
            if t.slots[slot].latest().is_some() {
                let clash = primary_key_clash(t, &row, t.slots.len());
                self.before_duplicate(i, tid)?;
                return Err(clash.into());
            }
        }
        if let Err(e) = self.check_unique(i, tid, &row, existing) {
            if matches!(&e, Interrupt::Error(_)) {
                self.before_duplicate(i, tid)?;
            }
            return Err(e);
        }
        if !self.w.ssi.xacts.is_empty() {
            self.ssi_insert(i, tid, true)?;
        }
        let cl_depth = self.cl_depth(tid);
        let slot = match existing {
            Some(slot) => slot,
            None => self.w.db.tables[tid as usize].new_slot_keyed(key),
        };
        // Index maintenance is counted only when reads are (not in setup): copy the row
        // for it only then.
        let counted = self.w.tracing.then(|| row.clone());
        self.write_row(i, tid, slot, Some(row));
        let m = self.maintenance_reads(tid, None, counted.as_deref());
        self.w.query_reads += cl_depth + m;
        if self.w.tracing {
            let t = &self.w.db.tables[tid as usize];
            let key = t.key_text(slot);
            let name = self.w.sessions[i].name.clone();
            let table = t.name.clone();
            let external = table.eq_ignore_ascii_case(EXTERNAL_SYSTEM);
            self.push(Event::RowInserted {
                session: name.clone(),
                table,
                key: key.clone(),
            });
            if external {
                self.push(Event::ExternalCall { session: name, key });
            }
        }
        Ok(())
    }

    /// Whether writing `new` over `old` changes the row's clustered (primary) key, in a
    /// table whose rows are filed by key (tables placed by row hash allow duplicates).
    fn key_changes(&self, tid: u32, old: &[Value], new: &[Value]) -> bool {
        let t = &self.w.db.tables[tid as usize];
        !t.key.is_empty() && t.hash_key.is_empty() && !same_key(t, old, new)
    }

    /// An UPDATE that changes a row's clustered key (see [`Self::key_changes`]): another
    /// row with the new key is a duplicate, as for an INSERT (2627); an uncommitted one
    /// is waited for, as its key lock makes the writer wait.
    fn check_key_change(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        new: &[Value],
    ) -> Result<(), Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        // The row's new key is locked as an INSERT locks it: a transaction that holds
        // it (it wrote a row there, or moved a row away from it) is waited for.
        if self.w.tracing {
            let key = t.key_text_of(Some(new), slot);
            self.lock(
                i,
                Resource::Key {
                    table: tid,
                    index: 1,
                    key,
                },
                LockMode::X,
                false,
            )?;
        }
        let t = &self.w.db.tables[tid as usize];
        let clash = t
            .clustered_order()
            .find(|&s| s != slot && t.slots[s].latest().is_some_and(|o| same_key(t, o, new)));
        let Some(other) = clash else {
            return Ok(());
        };
        let res = self.key_resource(tid, other);
        self.lock(i, res, LockMode::S, true)?;
        let t = &self.w.db.tables[tid as usize];
        if !t.slots[other].latest().is_some_and(|o| same_key(t, o, new)) {
            return Ok(());
        }
        Err(primary_key_clash(t, new, slot).into())
    }

    /// The slot a row with `row`'s clustered key goes in: the key's slot when no row
    /// lives there (a deleted one), else a new one filed under the key.
    fn slot_for_key(&mut self, tid: u32, row: &[Value]) -> RowId {
        let t = &mut self.w.db.tables[tid as usize];
        let key = t.key_of(row, t.slots.len());
        match t.find_key(&key) {
            Some(s) if t.slots[s].latest().is_none() => s,
            _ => t.new_slot_keyed(key),
        }
    }

    /// The primary key of a table filed by key: a row that holds `row`'s key is 2627, and
    /// an uncommitted one is waited for first (as its key lock makes an INSERT wait).
    fn check_primary_key(&mut self, i: usize, tid: u32, row: &[Value]) -> Result<(), Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        if t.key.is_empty() {
            return Ok(());
        }
        let key = t.key_of(row, t.slots.len());
        let Some(slot) = t.find_key(&key).filter(|&s| t.slots[s].latest().is_some()) else {
            return Ok(());
        };
        self.wait_for_key_writer(i, tid, slot)?;
        let t = &self.w.db.tables[tid as usize];
        if t.slots[slot].latest().is_some() {
            return Err(primary_key_clash(t, row, t.slots.len()).into());
        }
        Ok(())
    }

    /// Before a unique-key clash with row `slot` is an error: waits for the transaction
    /// that may still change it, with the key lock in share mode for the statement. In a
    /// dialect whose check waits for writers only, only when another transaction's change
    /// is pending, and on the writer's own lock (the one an inserter holds, which the
    /// dialect words as a wait for that transaction).
    fn wait_for_key_writer(&mut self, i: usize, tid: u32, slot: RowId) -> Result<(), Interrupt> {
        let mut mode = LockMode::S;
        if self.rules.unique_waits_for_writers_only() {
            let own = self.w.sessions[i].txn.as_ref().map(|t| t.id);
            let pending = self.w.db.tables[tid as usize].slots[slot]
                .pending
                .as_ref()
                .map(|(txn, _)| *txn);
            if pending.is_none() || pending == own {
                return Ok(());
            }
            mode = LockMode::X;
        }
        let res = self.key_resource(tid, slot);
        self.lock(i, res, mode, true)
    }

    /// Unique nonclustered indexes (filtered ones only among rows in their filter): 2601.
    fn check_unique(
        &mut self,
        i: usize,
        tid: u32,
        row: &[Value],
        except: Option<RowId>,
    ) -> Result<(), Interrupt> {
        let indexes: Vec<_> = self.w.db.tables[tid as usize]
            .indexes
            .iter()
            .filter(|ix| ix.unique)
            .cloned()
            .collect();
        for ix in indexes {
            let t = &self.w.db.tables[tid as usize];
            if !t.filter_passes(&ix, row) {
                continue;
            }
            let key: Vec<Value> = ix.columns.iter().map(|(c, _)| row[*c].clone()).collect();
            let mut clash = None;
            for slot in t.clustered_order() {
                if Some(slot) == except {
                    continue;
                }
                let Some(other) = t.slots[slot].latest() else {
                    continue;
                };
                if !t.filter_passes(&ix, other) {
                    continue;
                }
                if ix
                    .columns
                    .iter()
                    .zip(&key)
                    .all(|((c, _), k)| compare(&other[*c], k) == Some(Ordering::Equal))
                {
                    clash = Some(slot);
                    break;
                }
            }
            if let Some(slot) = clash {
                // An uncommitted clash waits for its writer, as the key lock makes it.
                self.wait_for_key_writer(i, tid, slot)?;
                let t = &self.w.db.tables[tid as usize];
                let still = t.slots[slot]
                    .latest()
                    .is_some_and(|o| t.filter_passes(&ix, o));
                if still {
                    let shown = key
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ");
                    let columns = ix
                        .columns
                        .iter()
                        .map(|&(c, _)| t.columns[c].name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(if ix.constraint {
                        SqlError::duplicate_unique_key(&ix.name, &t.name, &shown)
                    } else {
                        SqlError::duplicate_index_key(&t.name, &ix.name, &shown)
                    }
                    .with_key(columns, shown)
                    .into());
                }
            }
        }
        Ok(())
    }

    pub(crate) fn check_unique_existing(
        &self,
        tid: u32,
        ix: &crate::state::storage::Index,
    ) -> Result<(), SqlError> {
        let t = &self.w.db.tables[tid as usize];
        let mut seen: Vec<Vec<Value>> = Vec::new();
        for slot in t.clustered_order() {
            let Some(row) = t.slots[slot].latest() else {
                continue;
            };
            if !t.filter_passes(ix, row) {
                continue;
            }
            let key: Vec<Value> = ix.columns.iter().map(|(c, _)| row[*c].clone()).collect();
            if seen.iter().any(|k| rows_equal(k, &key)) {
                let shown = key
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(SqlError::generic(
                    1505,
                    16,
                    format!("The CREATE UNIQUE INDEX statement terminated because a duplicate key was found for the object name 'dbo.{}' and the index name '{}'. The duplicate key value is ({shown}).", t.name, ix.name),
                ));
            }
            seen.push(key);
        }
        Ok(())
    }

    /// The table an UPDATE/DELETE writes to, with the scan that finds its rows.
    fn dml_target<'a>(
        &self,
        target: &'a TableFactor,
        ctes: &'a [Cte],
        where_clause: Option<&'a Expr>,
    ) -> Result<DmlTarget<'a>, Interrupt> {
        if where_clause.is_some_and(has_aggregate) {
            return Err(SqlError::aggregate_in_where().into());
        }
        let TableFactor::Table {
            name, hints, alias, ..
        } = target
        else {
            return Err(SqlError::not_simulated("UPDATE or DELETE of this kind of target").into());
        };
        if name.parts.len() == 1 {
            if let Some(c) = ctes
                .iter()
                .find(|c| c.name.value.eq_ignore_ascii_case(&name.name().value))
            {
                // WITH next AS (SELECT TOP (1) ... FROM t WITH (...) WHERE ... ORDER BY ...)
                // UPDATE next ...: an updatable CTE over one table.
                let q = &c.query;
                let (
                    TableFactor::Table {
                        name: base,
                        hints: base_hints,
                        ..
                    },
                    true,
                ) =
                    (
                        &q.from.first().map(|f| &f.factor).cloned().unwrap_or(
                            TableFactor::Values {
                                rows: vec![],
                                alias: c.name.clone(),
                                columns: vec![],
                                span: 0..0,
                            },
                        ),
                        q.from.len() == 1 && q.from[0].joins.is_empty(),
                    )
                else {
                    return Err(SqlError::not_simulated(
                        "an updatable CTE over more than one table",
                    )
                    .into());
                };
                let tid = self.table_id(base)?;
                let pred = match (&q.where_clause, where_clause) {
                    (Some(a), Some(b)) => Some(Cow::Owned(Expr {
                        kind: ExprKind::Binary {
                            op: BinaryOp::And,
                            left: Box::new(a.clone()),
                            right: Box::new(b.clone()),
                        },
                        span: a.span.clone(),
                    })),
                    (Some(a), None) => Some(Cow::Borrowed(a)),
                    (None, Some(b)) => Some(Cow::Borrowed(b)),
                    (None, None) => None,
                };
                let mut all_hints = base_hints.clone();
                all_hints.extend(hints.iter().cloned());
                return Ok((
                    tid,
                    c.name.value.to_ascii_lowercase(),
                    all_hints,
                    pred,
                    q.order_by.clone(),
                    cte_top(q)?,
                ));
            }
        }
        let tid = self.table_id(name)?;
        let bind = alias
            .as_ref()
            .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase());
        Ok((
            tid,
            bind,
            hints.clone(),
            where_clause.map(Cow::Borrowed),
            Vec::new(),
            None,
        ))
    }

    /// Finds the rows an UPDATE or DELETE changes, locking them with U (X with XLOCK):
    /// one table by its access path, or, with FROM, the target among FROM's factors joined
    /// to the others (rows the join drops lose their U lock, as in SQL Server).
    fn locate_dml(&mut self, i: usize, d: &DmlSpec) -> Result<Located, Interrupt> {
        let (purpose, verb) = match d.event {
            DmlEvent::Delete => (Purpose::Delete, "DELETE"),
            _ => (Purpose::Update, "UPDATE"),
        };
        if d.from.is_empty() {
            let (tid, bind, hints, pred, order, cte_top) =
                self.dml_target(d.target, d.ctes, d.where_clause)?;
            self.check_triggers_output(tid, d.output, d.event)?;
            self.check_set_options(i, tid, verb)?;
            let limit = self.top_limit(i, d.top.map(Cow::Borrowed).or(cte_top).as_deref())?;
            // Worked out again for each row it locks, so only when that has no effect of
            // its own (no function, no subquery): otherwise the write decides, as before.
            let mut key_sets: Vec<(usize, &Expr)> = Vec::new();
            if self.rules.key_update_lock().is_some() {
                let table = &self.w.db.tables[tid as usize];
                key_sets = self
                    .assignment_targets(tid, d.assignments)
                    .into_iter()
                    .zip(d.assignments)
                    .filter_map(|(c, a)| Some((c?, &a.value)))
                    .filter(|&(c, _)| table.is_key_column(c))
                    .collect();
                if key_sets.iter().any(|&(_, e)| {
                    crate::syntax::has_subquery(e) || crate::syntax::calls_function(e, &|_| true)
                }) {
                    key_sets.clear();
                }
            }
            let spec = ScanSpec {
                table: tid,
                binding: bind,
                hints: &hints,
                purpose,
                pred: pred.as_deref(),
                order: &order,
                limit,
                select: None,
                key_sets: &key_sets,
                latest: false,
            };
            let (scope, rows) = self.scan(i, &spec, None)?;
            let rows = rows.into_iter().map(|(s, r)| (s, r, None)).collect();
            return Ok((tid, hints, scope, rows));
        }
        let pushed = d.ctes.len();
        self.w.ctes.extend(d.ctes.iter().cloned());
        let r = self.locate_joined(i, d, purpose, verb);
        self.pop_ctes(pushed);
        r
    }

    fn locate_joined(
        &mut self,
        i: usize,
        d: &DmlSpec,
        purpose: Purpose,
        verb: &str,
    ) -> Result<Located, Interrupt> {
        let TableFactor::Table {
            name,
            hints: target_hints,
            ..
        } = d.target
        else {
            return Err(SqlError::not_simulated(&format!(
                "{verb} of this kind of target with FROM"
            ))
            .into());
        };
        let wanted = object_key(name);
        // The target is the FROM factor it names by alias (or by table name when not
        // aliased), else the one reference to its table under an alias; a table FROM does
        // not name is joined to FROM as its first factor.
        let mut by_alias = None;
        let mut by_table = Vec::new();
        for (k, tr) in d.from.iter().enumerate() {
            let factors = std::iter::once((None, &tr.factor)).chain(
                tr.joins
                    .iter()
                    .enumerate()
                    .map(|(n, j)| (Some(n), &j.factor)),
            );
            for (n, f) in factors {
                if let TableFactor::Table {
                    name: t,
                    alias,
                    hints,
                    ..
                } = f
                {
                    let bind = alias
                        .as_ref()
                        .map_or_else(|| object_key(t), |a| a.value.to_ascii_lowercase());
                    let found = ((k, n), t, bind, hints);
                    if found.2 == wanted {
                        by_alias.get_or_insert(found);
                    } else if object_key(t) == wanted {
                        by_table.push(found);
                    }
                }
            }
        }
        if by_alias.is_none() && by_table.len() > 1 {
            return Err(SqlError::generic(
                8154,
                16,
                format!("The table '{}' is ambiguous.", name.name().value),
            )
            .into());
        }
        let found = by_alias.or_else(|| by_table.pop());
        let prepended;
        let (at, base, bind, mut hints, from) = match found {
            Some((at, t, bind, hints)) => (at, t, bind, hints.clone(), d.from),
            None => {
                let mut all = vec![TableRef {
                    factor: d.target.clone(),
                    joins: Vec::new(),
                }];
                all.extend(d.from.iter().cloned());
                prepended = all;
                ((0, None), name, wanted, Vec::new(), &prepended[..])
            }
        };
        hints.extend(target_hints.iter().cloned());
        let tid = self
            .base_table(base)
            .ok_or_else(|| SqlError::not_simulated(&format!("{verb} of a CTE joined in FROM")))?;
        self.check_triggers_output(tid, d.output, d.event)?;
        self.check_set_options(i, tid, verb)?;
        let limit = self.top_limit(i, d.top)?;
        let pred = {
            let t = &self.w.db.tables[tid as usize];
            let mut own = Scope::default();
            own.push(
                bind.clone(),
                Some(t.name.to_ascii_lowercase()),
                Rc::clone(&t.column_names),
            );
            target_only(d.where_clause, from, &own)
        };
        // Where a scan locks only the rows it keeps, the join reads the target without
        // locks and the write locks each row the join kept (waiting there, then running
        // the statement again): the rows the join drops are never locked or waited for.
        let after_join = self.rules.lock_matching_rows_only();
        let join = DmlJoin {
            at,
            table: tid,
            binding: bind,
            hints: hints.clone(),
            purpose: if after_join { Purpose::Read } else { purpose },
            pred,
        };
        let (scope, rows) = self.rows_of_from(i, from, None, std::slice::from_ref(&join))?;
        let b = scope
            .bindings
            .iter()
            .find(|b| b.columns.last().is_some_and(|c| c == SLOT_COLUMN))
            .expect("the target's binding");
        let (start, slot_at) = (b.offset, b.offset + b.columns.len() - 1);
        let mut located = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for row in rows {
            if let Some(w) = d.where_clause {
                if !self.row_matches(i, &scope, &row, Some(w), None)? {
                    continue;
                }
            }
            // A row that several source rows match changes once.
            let Some(slot) = row[slot_at].as_i64().map(|s| s as RowId) else {
                continue;
            };
            if seen.insert(slot) {
                located.push((slot, row[start..slot_at].to_vec(), Some(row)));
            }
        }
        if let Some(n) = limit {
            located.truncate(n);
        }
        if after_join {
            self.check_snapshot_writes(i, tid, &located)?;
        } else {
            self.release_unlocated(i, tid, &located);
        }
        Ok((tid, hints, scope, located))
    }

    /// A transaction with a snapshot of its own (REPEATABLE READ, SNAPSHOT) may not write
    /// a row changed since: what a locking scan checks, for rows located without locks.
    pub(super) fn check_snapshot_writes(
        &mut self,
        i: usize,
        tid: u32,
        located: &[LocatedRow],
    ) -> Result<(), Interrupt> {
        let iso = self.rules.isolation(self.w.sessions[i].options.isolation);
        if iso != IsolationLevel::Snapshot {
            return Ok(());
        }
        let seq = self.snapshot_seq(i);
        for (slot, _, _) in located {
            if let Some(e) = self.changed_since(tid, *slot, seq, false) {
                return Err(e.into());
            }
        }
        Ok(())
    }

    /// The update conflict a snapshot writer meets when the row changed after `seq` (a
    /// row an update moved to a new key was updated, not deleted). A row-lock clause
    /// (`locking_read`) calls a deleted row updated too, as the server's LockRows does.
    fn changed_since(
        &self,
        tid: u32,
        slot: RowId,
        seq: u64,
        locking_read: bool,
    ) -> Option<SqlError> {
        let t = &self.w.db.tables[tid as usize];
        let now = &t.slots[slot];
        if !now.changed_since(seq) {
            return None;
        }
        let e = SqlError::snapshot_update_conflict(&t.name);
        let deleted =
            !locking_read && now.latest_committed().is_none() && t.moved_to(slot).is_none();
        Some(self.rules.update_conflict(e, deleted))
    }

    /// Where the newest version of the row in `slot` is, for a locking reader without a
    /// snapshot in a dialect that follows a row's update chain: the end of the chain of
    /// committed moves (`Table::moved_to`), None when the row did not move.
    fn moved_row(&self, tid: u32, slot: RowId, snapshot: Option<u64>) -> Option<RowId> {
        if snapshot.is_some() || !self.rules.follows_moved_rows() || !self.w.tracing {
            return None;
        }
        let t = &self.w.db.tables[tid as usize];
        let mut at = t.moved_to(slot)?;
        // A chain of key changes; bounded, as each step is a committed update.
        for _ in 0..t.slots.len() {
            match t.moved_to(at) {
                Some(next) => at = next,
                None => break,
            }
        }
        Some(at)
    }

    /// Gives up a lock the statement took on `res` (one it did not hold before): the row
    /// it stood for is not the one the statement goes on with.
    fn drop_statement_lock(&mut self, i: usize, res: &Resource) {
        if let Some(owner) = self.w.sessions[i].txn.as_ref().map(|t| t.id) {
            let grants = self.w.locks.release(owner, res);
            self.w.sessions[i].statement_locks.retain(|r| r != res);
            self.wake(grants);
        }
    }

    /// Drops the U locks this statement took on target rows that the join or WHERE left out.
    fn release_unlocated(&mut self, i: usize, tid: u32, located: &[LocatedRow]) {
        let Some(owner) = self.w.sessions[i].txn.as_ref().map(|t| t.id) else {
            return;
        };
        let kept: Vec<Resource> = located
            .iter()
            .map(|(s, _, _)| self.key_resource(tid, *s))
            .collect();
        let stale: Vec<Resource> = self.w.sessions[i]
            .fresh_locks
            .iter()
            .filter(|r| match r {
                Resource::Key { table, .. } | Resource::RowHash { table, .. } => *table == tid,
                _ => false,
            })
            .filter(|r| !kept.contains(r))
            .cloned()
            .collect();
        for r in stale {
            if self
                .w
                .locks
                .held(owner, &r)
                .is_some_and(|(m, _)| m == LockMode::U)
            {
                let grants = self.w.locks.release(owner, &r);
                self.w.sessions[i].fresh_locks.remove(&r);
                self.wake(grants);
            }
        }
    }

    fn top_limit(
        &mut self,
        i: usize,
        top: Option<&sql::ast::Top>,
    ) -> Result<Option<usize>, Interrupt> {
        match top {
            Some(t) if t.percent || t.with_ties => Err(SqlError::not_simulated(
                "TOP ... PERCENT or WITH TIES in UPDATE or DELETE",
            )
            .into()),
            Some(t) => self.row_count(i, &t.count, None, Count::Top),
            None => Ok(None),
        }
    }

    /// A TOP, LIMIT, OFFSET or FETCH count, converted to bigint as the dialect converts
    /// (rounding 1.5 to 2, or truncating it); `None` for no limit (where the dialect says
    /// `LIMIT NULL` is none, and so an `OFFSET NULL` skips nothing).
    pub(crate) fn row_count(
        &mut self,
        i: usize,
        e: &Expr,
        outer: Option<&RowCtx>,
        what: Count,
    ) -> Result<Option<usize>, Interrupt> {
        let v = self.eval(i, e, outer)?;
        if v.is_null() {
            return Ok(if self.rules.limit_null_is_all() {
                None
            } else {
                Some(0)
            });
        }
        if let (Value::Decimal(_), Some(e)) = (&v, self.rules.fractional_row_count(what)) {
            return Err(e.into());
        }
        let n = self
            .convert(&v, &sql::ast::DataType::BigInt, None)?
            .as_i64()
            .unwrap_or(0);
        if n < 0 || (n == 0 && what == Count::Fetch) {
            return Err(SqlError::bad_row_count(what).into());
        }
        Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
    }

    /// An UPDATE may not set an identity column (SQL Server's 8102), nor one GENERATED
    /// ALWAYS where identities are otherwise defaults (a serial one it may set).
    fn check_identity_update(
        &self,
        tid: u32,
        assignments: &[sql::ast::Assignment],
    ) -> Result<(), Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        let Some(id) = &t.identity else {
            return Ok(());
        };
        if self.rules.identity_is_default() && !id.always {
            return Ok(());
        }
        let name = &t.columns[id.column].name;
        let sets = assignments.iter().any(|a| match &a.target {
            sql::ast::AssignTarget::Column(c) | sql::ast::AssignTarget::VarAndColumn(_, c) => {
                c.name().value.eq_ignore_ascii_case(name)
            }
            sql::ast::AssignTarget::Var(_) => false,
        });
        if sets {
            return Err(self.rules.identity_written(&t.name, name, false).into());
        }
        Ok(())
    }

    /// The column each SET assignment writes (`None`: no such column, an error once a
    /// row is written, as before any lookup was hoisted), found once per statement
    /// rather than by name for every row it changes.
    fn assignment_targets(
        &self,
        tid: u32,
        assignments: &[sql::ast::Assignment],
    ) -> Vec<Option<usize>> {
        let columns = &self.w.db.tables[tid as usize].columns;
        assignments
            .iter()
            .map(|a| match &a.target {
                sql::ast::AssignTarget::Column(c) | sql::ast::AssignTarget::VarAndColumn(_, c) => {
                    let name = &c.name().value;
                    columns
                        .iter()
                        .position(|x| x.name.eq_ignore_ascii_case(name))
                }
                sql::ast::AssignTarget::Var(_) => None,
            })
            .collect()
    }

    /// A row with an UPDATE's (or MERGE's) assignments applied, converted to the columns'
    /// types; `@v = col = ...` also sets the variable.
    fn assigned_row(
        &mut self,
        i: usize,
        tid: u32,
        assignments: &[sql::ast::Assignment],
        targets: &[Option<usize>],
        ctx: &RowCtx,
        old: &[Value],
    ) -> Result<Vec<Value>, Interrupt> {
        let (columns, table_name) = {
            let t = &self.w.db.tables[tid as usize];
            (t.columns.clone(), t.name.clone())
        };
        let mut new = old.to_vec();
        // A NOT NULL column set to NULL fails once every SET is done, showing the row.
        let mut null_in = None;
        for (a, target) in assignments.iter().zip(targets) {
            let v = self.eval(i, &a.value, Some(ctx))?;
            match &a.target {
                sql::ast::AssignTarget::Column(c) | sql::ast::AssignTarget::VarAndColumn(_, c) => {
                    let p = target.ok_or_else(|| {
                        SqlError::invalid_target_column(&c.name().value, &table_name)
                    })?;
                    new[p] =
                        self.convert(&v, &columns[p].ty, Some((&table_name, &columns[p].name)))?;
                    if new[p].is_null() && !columns[p].nullable {
                        null_in.get_or_insert(p);
                    }
                    if let sql::ast::AssignTarget::VarAndColumn(var, _) = &a.target {
                        self.assign_var(i, &var.value, new[p].clone())?;
                    }
                }
                sql::ast::AssignTarget::Var(var) => self.assign_var(i, &var.value, v)?,
            }
        }
        if let Some(p) = null_in {
            return Err(
                SqlError::null_not_allowed(&columns[p].name, &table_name, "UPDATE")
                    .with_failing_row(row_text(&new))
                    .into(),
            );
        }
        self.check_constraints(i, tid, &new, "UPDATE")?;
        Ok(new)
    }

    /// Writes a located row's new version (`None`: deletes it): the U lock the scan took
    /// becomes X, unique indexes are checked, and the write's reads (`cl_depth`: the
    /// clustered index's depth when the statement began writing) and event are counted.
    /// `assigned` holds the columns the statement's SET names (`assignment_targets`).
    #[allow(clippy::too_many_arguments)]
    fn write_located(
        &mut self,
        i: usize,
        tid: u32,
        slot: RowId,
        old: &[Value],
        new: Option<Vec<Value>>,
        assigned: &[Option<usize>],
        hints: &[TableHint],
        cl_depth: u64,
    ) -> Result<(), Interrupt> {
        let res = self.key_resource(tid, slot);
        let mut mode = self
            .rules
            .write_row_lock(new.is_none())
            .unwrap_or(LockMode::X);
        // An update by a transaction that had locked the row FOR UPDATE counts as a key
        // update though it keeps the key: the server keeps the stronger mode on the
        // version it replaces, so a later KEY SHARE lock under a snapshot does not pass it.
        let mut key_update = false;
        if let (Some(key_mode), Some(new)) = (self.rules.key_update_lock(), &new) {
            if self.w.db.tables[tid as usize].changes_key(old, new) {
                mode = key_mode;
            } else if let Some(t) = &self.w.sessions[i].txn {
                key_update = self
                    .w
                    .locks
                    .held(t.id, &res)
                    .is_some_and(|(m, _)| m == key_mode);
            }
        }
        self.nowait(i, hints, |x| x.lock(i, res, mode, false))?;
        if !self.w.ssi.xacts.is_empty() {
            self.ssi_write(i, tid, slot, old, new.as_deref())?;
        }
        let Some(new) = new else {
            let m = self.maintenance_reads(tid, Some(old), None);
            self.w.query_reads += cl_depth + m;
            let key = self.w.db.tables[tid as usize].key_text(slot);
            let table = self.w.db.tables[tid as usize].name.clone();
            self.write_row(i, tid, slot, None);
            let name = self.w.sessions[i].name.clone();
            self.push(Event::RowDeleted {
                session: name,
                table,
                key,
            });
            return Ok(());
        };
        let key_changed = self.key_changes(tid, old, &new);
        if key_changed {
            self.check_key_change(i, tid, slot, &new)?;
        }
        self.check_unique(i, tid, &new, Some(slot))?;
        let m = self.maintenance_reads(tid, Some(old), Some(&new));
        let rewrite = self.w.tracing
            && self.w.db.tables[tid as usize].stored_size(old)
                != self.w.db.tables[tid as usize].stored_size(&new);
        self.w.query_reads += cl_depth + m + rewrite as u64;
        // The event's changes are read before the row moves into the table. A column the
        // SET names is shown though its value stays: a lost update writes the value another
        // session wrote already (`stock 9 -> 9`), and that is what the learner must see.
        let changes: Option<Vec<(String, String, String)>> = self.recording().then(|| {
            let t = &self.w.db.tables[tid as usize];
            t.columns
                .iter()
                .enumerate()
                .filter(|(p, _)| old[*p] != new[*p] || assigned.contains(&Some(*p)))
                .map(|(p, c)| (c.name.clone(), show(&old[p]), show(&new[p])))
                .collect()
        });
        // A new clustered key moves the row, as SQL Server's split update does (and a
        // versioned dialect's new version): the row at the old key is deleted and the new one
        // filed under its key, so a seek finds it there, the old key is free once this
        // commits, and a reader of the committed version still finds the old row. (A
        // table variable changes its rows in place.)
        let slot = if key_changed && !self.w.db.tables[tid as usize].is_variable {
            self.write_row(i, tid, slot, None);
            let to = self.slot_for_key(tid, &new);
            if self.rules.follows_moved_rows() {
                self.w.db.tables[tid as usize].record_move(slot, to);
            }
            to
        } else {
            slot
        };
        self.write_version(i, tid, slot, Some(new), key_update);
        if let Some(changes) = changes {
            let t = &self.w.db.tables[tid as usize];
            let key = t.key_text(slot);
            let table = t.name.clone();
            let name = self.w.sessions[i].name.clone();
            self.push(Event::RowUpdated {
                session: name,
                table,
                key,
                changes,
            });
        }
        Ok(())
    }

    pub(crate) fn exec_update(&mut self, i: usize, u: &Update) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        if let TableFactor::TableVar { name, .. } = &u.target {
            if !u.from.is_empty() {
                return Err(SqlError::not_simulated("UPDATE of a table variable with FROM").into());
            }
            return self.update_table_var(i, &name.value, u);
        }
        let spec = DmlSpec {
            target: &u.target,
            ctes: &u.ctes,
            top: u.top.as_ref(),
            from: &u.from,
            where_clause: u.where_clause.as_ref(),
            output: u.output.as_ref(),
            event: DmlEvent::Update,
            assignments: &u.assignments,
        };
        if let TableFactor::Table { name, .. } = &u.target {
            if let Some(tid) = self.base_table(name) {
                self.check_identity_update(tid, &u.assignments)?;
            }
        }
        let (tid, hints, scope, rows) = self.locate_dml(i, &spec)?;
        if rows.is_empty() {
            let values = u.assignments.iter().map(|a| &a.value);
            self.bind_names(i, u.where_clause.iter().chain(values), &scope, None)?;
            // A SET of a column the table lacks fails with no row to change, too.
            let targets = self.assignment_targets(tid, &u.assignments);
            for (a, target) in u.assignments.iter().zip(&targets) {
                if let (
                    sql::ast::AssignTarget::Column(c) | sql::ast::AssignTarget::VarAndColumn(_, c),
                    None,
                ) = (&a.target, target)
                {
                    let table = &self.w.db.tables[tid as usize].name;
                    return Err(SqlError::invalid_target_column(&c.name().value, table).into());
                }
            }
        }
        self.check_identity_update(tid, &u.assignments)?;
        let columns = self.w.db.tables[tid as usize].columns.clone();
        // The rows before and after are kept only for triggers and OUTPUT.
        let keep = u.output.is_some()
            || self.has_triggers(tid, DmlEvent::Update)
            || self.has_foreign_keys(tid);
        let mut changed = Vec::new();
        // OUTPUT (RETURNING) may read the FROM tables' columns: each row's join, kept.
        let mut joins = Vec::new();
        let keep_joins = u.output.is_some() && !u.from.is_empty();
        let mut n = 0u64;
        let cl_depth = self.cl_depth(tid);
        let targets = self.assignment_targets(tid, &u.assignments);
        for (slot, old, joined) in rows {
            if keep_joins {
                joins.push(joined.clone().unwrap_or_default());
            }
            let ctx = RowCtx {
                scope: &scope,
                row: joined.as_deref().unwrap_or(&old),
                outer: None,
                group: None,
            };
            let new = self.assigned_row(i, tid, &u.assignments, &targets, &ctx, &old)?;
            let copy = keep.then(|| new.clone());
            self.write_located(i, tid, slot, &old, Some(new), &targets, &hints, cl_depth)?;
            n += 1;
            if let Some(new) = copy {
                changed.push((new, old));
            }
        }
        let rules = self.rules;
        rules.rows_modified(self, i, tid);
        if self.has_foreign_keys(tid) {
            let written: Vec<foreign_keys::Written> = (changed.iter())
                .map(|(new, old)| (Some(old.clone()), Some(new.clone())))
                .collect();
            self.keep_foreign_keys(i, tid, &written)?;
        }
        if self.has_triggers(tid, DmlEvent::Update) {
            self.fire_triggers(
                i,
                tid,
                DmlEvent::Update,
                changed.iter().map(|c| c.0.clone()).collect(),
                changed.iter().map(|c| c.1.clone()).collect(),
            )?;
        }
        if let Some(o) = &u.output {
            let from = keep_joins.then_some((&scope, joins));
            self.emit_output(i, o, &columns, changed, from)?;
        }
        self.rows_affected(i, n);
        Ok(Flow::Done {
            kind: CostKind::Update,
            rows: Some(n),
            reads: self.w.query_reads,
            written: n,
        })
    }

    fn update_table_var(&mut self, i: usize, name: &str, u: &Update) -> Result<Flow, Interrupt> {
        let key = name.to_ascii_lowercase();
        let t = self
            .frame(i)
            .table_vars
            .get(&key)
            .cloned()
            .ok_or_else(|| SqlError::undeclared_variable(name))?;
        let mut scope = Scope::default();
        scope.push(key.clone(), None, Rc::clone(&t.column_names));
        let mut updates = Vec::new();
        for slot in t.clustered_order().collect::<Vec<_>>() {
            let Some(old) = t.slots[slot].latest().cloned() else {
                continue;
            };
            if !self.row_matches(i, &scope, &old, u.where_clause.as_ref(), None)? {
                continue;
            }
            let mut new = old.clone();
            for a in &u.assignments {
                let ctx = RowCtx {
                    scope: &scope,
                    row: &old,
                    outer: None,
                    group: None,
                };
                let v = self.eval(i, &a.value, Some(&ctx))?;
                if let sql::ast::AssignTarget::Column(c) = &a.target {
                    if let Some(p) = t.column(&c.name().value) {
                        new[p] =
                            self.convert(&v, &t.columns[p].ty, Some((name, &t.columns[p].name)))?;
                    }
                }
            }
            updates.push((slot, new));
        }
        let n = updates.len() as u64;
        if let Some(tv) = self.frame_mut(i).table_vars.get_mut(&key) {
            for (slot, new) in updates {
                tv.slot_mut(slot).committed.push((0, Some(new)));
            }
        }
        self.rows_affected(i, n);
        Ok(Flow::Done {
            kind: CostKind::Update,
            rows: Some(n),
            reads: 0,
            written: n,
        })
    }

    pub(crate) fn exec_delete(&mut self, i: usize, d: &Delete) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        let spec = DmlSpec {
            target: &d.target,
            ctes: &d.ctes,
            top: d.top.as_ref(),
            from: &d.from,
            where_clause: d.where_clause.as_ref(),
            output: d.output.as_ref(),
            event: DmlEvent::Delete,
            assignments: &[],
        };
        let (tid, hints, scope, rows) = self.locate_dml(i, &spec)?;
        if rows.is_empty() {
            self.bind_names(i, d.where_clause.iter(), &scope, None)?;
        }
        let columns = self.w.db.tables[tid as usize].columns.clone();
        let mut deleted = Vec::new();
        let mut joins = Vec::new();
        let keep_joins = d.output.is_some() && !d.from.is_empty();
        let cl_depth = self.cl_depth(tid);
        for (slot, old, joined) in rows {
            if keep_joins {
                joins.push(joined.unwrap_or_default());
            }
            self.write_located(i, tid, slot, &old, None, &[], &hints, cl_depth)?;
            deleted.push(old);
        }
        let n = deleted.len() as u64;
        let rules = self.rules;
        rules.rows_modified(self, i, tid);
        if self.has_foreign_keys(tid) {
            let written: Vec<foreign_keys::Written> = deleted
                .iter()
                .map(|old| (Some(old.clone()), None))
                .collect();
            self.keep_foreign_keys(i, tid, &written)?;
        }
        if self.has_triggers(tid, DmlEvent::Delete) {
            self.fire_triggers(i, tid, DmlEvent::Delete, Vec::new(), deleted.clone())?;
        }
        if let Some(o) = &d.output {
            let rows = deleted
                .into_iter()
                .map(|r| (vec![Value::Null; r.len()], r))
                .collect();
            let from = keep_joins.then_some((&scope, joins));
            self.emit_output(i, o, &columns, rows, from)?;
        }
        self.rows_affected(i, n);
        Ok(Flow::Done {
            kind: CostKind::Delete,
            rows: Some(n),
            reads: self.w.query_reads,
            written: n,
        })
    }

    /// MERGE in two steps, as SQL Server runs it: first it reads, deciding for each source
    /// row whether it matches a target row (U locks on the rows found; with HOLDLOCK or
    /// SERIALIZABLE also on the searched key when no row has it, standing for the
    /// key-range lock), then, after the read's cost, it writes. Without HOLDLOCK two
    /// sessions can both find a new key missing and both insert it: one waits for the
    /// other's key lock and fails with 2627.
    pub(crate) fn exec_merge(&mut self, i: usize, m: &sql::ast::Merge) -> Result<Flow, Interrupt> {
        self.w.query_reads = 0;
        let TableFactor::Table {
            name, alias, hints, ..
        } = &m.target
        else {
            return Err(SqlError::not_simulated("MERGE into this kind of target").into());
        };
        let tid = self.table_id(name)?;
        if [DmlEvent::Insert, DmlEvent::Update, DmlEvent::Delete]
            .iter()
            .any(|e| self.has_triggers(tid, *e))
        {
            return Err(SqlError::not_simulated("MERGE on a table with triggers").into());
        }
        if self.has_foreign_keys(tid) {
            return Err(SqlError::not_simulated("MERGE on a table with foreign keys").into());
        }
        self.check_set_options(i, tid, "MERGE")?;
        let bind = alias
            .as_ref()
            .map_or_else(|| object_key(name), |a| a.value.to_ascii_lowercase());
        let target = MergeTarget {
            m,
            tid,
            bind: &bind,
            hints,
        };
        let pending = self.w.sessions[i].merge_pending.clone();
        let Some(pending) = pending else {
            let mut read = self.merge_read(i, &target)?;
            let reads = self.w.query_reads;
            read.reads = reads;
            self.w.sessions[i].merge_pending = Some(read);
            return Ok(Flow::Pause(crate::cost::read_cost(reads)));
        };
        // The statement's reads: its read's, then its writes'.
        self.w.query_reads = pending.reads;
        let r = self.merge_write(i, &target, &pending);
        if !matches!(r, Err(Interrupt::Block)) {
            self.w.sessions[i].merge_pending = None;
        }
        r
    }

    fn merge_read(&mut self, i: usize, t: &MergeTarget) -> Result<MergePending, Interrupt> {
        let MergeTarget {
            m,
            tid,
            bind,
            hints,
        } = *t;
        let (source_scope, source_rows) = self.factor_rows(i, &m.source, None)?;
        let Some(sb) = source_scope.bindings.first().cloned() else {
            return Err(SqlError::not_simulated("MERGE with this source").into());
        };
        let serializable = has_hint(hints, HintKind::HoldLock)
            || has_hint(hints, HintKind::Serializable)
            || self.w.sessions[i].options.isolation == IsolationLevel::Serializable;
        let mut rows = Vec::with_capacity(source_rows.len());
        for src in source_rows {
            let ctx = RowCtx::new(&source_scope, &src);
            let spec = ScanSpec {
                table: tid,
                binding: bind.to_string(),
                hints,
                purpose: Purpose::Update,
                pred: Some(&m.on),
                order: &[],
                limit: None,
                select: None,
                key_sets: &[],
                latest: false,
            };
            let (target_scope, found) = self.scan(i, &spec, Some(&ctx))?;
            if found.is_empty() && serializable {
                self.lock_missing_key(i, tid, &target_scope, &m.on, &ctx)?;
            }
            if found.is_empty() {
                rows.push((src.clone(), None));
            }
            for (slot, _) in found {
                rows.push((src.clone(), Some(slot)));
            }
        }
        Ok(MergePending {
            source: (sb.name, sb.table, sb.columns),
            rows,
            reads: 0,
        })
    }

    /// HOLDLOCK on a key no row has: SQL Server locks the key range where the key would
    /// go (`Table::range_text`), so another MERGE of a key in it waits, and so does an
    /// INSERT into it.
    fn lock_missing_key(
        &mut self,
        i: usize,
        tid: u32,
        target_scope: &Scope,
        on: &Expr,
        ctx: &RowCtx,
    ) -> Result<(), Interrupt> {
        let preds = conjuncts(on);
        let (key_cols, columns, hash_keyed) = {
            let t = &self.w.db.tables[tid as usize];
            (t.key.clone(), t.columns.clone(), !t.hash_key.is_empty())
        };
        if key_cols.is_empty() || hash_keyed {
            return Err(SqlError::not_simulated(
                "HOLDLOCK on a MERGE target without a clustered key",
            )
            .into());
        }
        let mut values = Vec::with_capacity(key_cols.len());
        for &c in &key_cols {
            let Some(e) = equality_expr(&preds, &columns[c].name, target_scope) else {
                return Err(SqlError::not_simulated(
                    "HOLDLOCK on a MERGE whose ON does not give the whole clustered key",
                )
                .into());
            };
            let v = self.eval(i, e, Some(ctx))?;
            values.push(convert(&v, &columns[c].ty, None).unwrap_or(Value::Null));
        }
        let desc = vec![false; values.len()];
        let sought = crate::state::storage::OrdKey(values.into(), desc.into());
        self.lock_key_range(i, tid, &sought, LockMode::U)
    }

    /// Locks the key range a key no row has falls in, as SQL Server's key-range lock on
    /// the next key does: the range below the next key (`Table::range_text`), or the end
    /// of the index, and the next key's row itself, so an UPDATE of that row waits too.
    fn lock_key_range(
        &mut self,
        i: usize,
        tid: u32,
        key: &crate::state::storage::OrdKey,
        mode: LockMode,
    ) -> Result<(), Interrupt> {
        let t = &self.w.db.tables[tid as usize];
        let next = t.order.next_after(key);
        let range = Resource::Key {
            table: tid,
            index: 1,
            key: t.range_text(key),
        };
        self.lock(i, range, mode, false)?;
        match next {
            Some(slot) => {
                let row = self.key_resource(tid, slot);
                self.lock(i, row, mode, false)
            }
            None => Ok(()),
        }
    }

    fn merge_write(
        &mut self,
        i: usize,
        t: &MergeTarget,
        pending: &MergePending,
    ) -> Result<Flow, Interrupt> {
        let MergeTarget {
            m,
            tid,
            bind,
            hints,
        } = *t;
        use sql::ast::MergeAction;
        let (columns, column_names, table_name) = {
            let t = &self.w.db.tables[tid as usize];
            (
                t.columns.clone(),
                Rc::clone(&t.column_names),
                t.name.clone(),
            )
        };
        let (sname, stable, scols) = pending.source.clone();
        let mut source_scope = Scope::default();
        source_scope.push(sname.clone(), stable.clone(), Rc::clone(&scols));
        let mut joined = Scope::default();
        joined.push(
            bind.to_string(),
            Some(table_name.to_ascii_lowercase()),
            column_names,
        );
        joined.push(sname, stable, scols);
        let cl_depth = self.cl_depth(tid);
        let mut n = 0u64;
        let mut seen = std::collections::BTreeSet::new();
        // OUTPUT's rows: (inserted, deleted), NULLs for the side an action lacks, and
        // after them the source row and the action (`$action`).
        let output = m.output.is_some();
        let nulls = vec![Value::Null; columns.len()];
        let mut out_rows: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
        let mut out_joins: Vec<Vec<Value>> = Vec::new();
        let mut record = |inserted: &[Value], deleted: &[Value], src: &[Value], action: &str| {
            if output {
                out_rows.push((inserted.to_vec(), deleted.to_vec()));
                let mut join = src.to_vec();
                join.push(Value::Text(action.into()));
                out_joins.push(join);
            }
        };
        for (src, matched) in &pending.rows {
            match matched {
                Some(slot) => {
                    let slot = *slot;
                    if !seen.insert(slot) {
                        return Err(merge_twice().into());
                    }
                    let Some(old) = self.w.db.tables[tid as usize].slots[slot].latest().cloned()
                    else {
                        continue;
                    };
                    let mut row = old.clone();
                    row.extend(src.iter().cloned());
                    let ctx = RowCtx::new(&joined, &row);
                    let Some(clause) = self.merge_clause_for(i, m, true, &ctx)? else {
                        continue;
                    };
                    match &clause.action {
                        MergeAction::Update(assignments) => {
                            let targets = self.assignment_targets(tid, assignments);
                            let new =
                                self.assigned_row(i, tid, assignments, &targets, &ctx, &old)?;
                            record(&new, &old, src, "UPDATE");
                            self.write_located(
                                i,
                                tid,
                                slot,
                                &old,
                                Some(new),
                                &targets,
                                hints,
                                cl_depth,
                            )?;
                        }
                        MergeAction::Delete => {
                            record(&nulls, &old, src, "DELETE");
                            self.write_located(i, tid, slot, &old, None, &[], hints, cl_depth)?;
                        }
                        MergeAction::Insert { .. } => {}
                    }
                    n += 1;
                }
                None => {
                    let ctx = RowCtx::new(&source_scope, src);
                    let Some(clause) = self.merge_clause_for(i, m, false, &ctx)? else {
                        continue;
                    };
                    let MergeAction::Insert {
                        columns: names,
                        values,
                    } = &clause.action
                    else {
                        continue;
                    };
                    let mut given = Vec::with_capacity(values.len());
                    for e in values {
                        given.push(self.eval(i, e, Some(&ctx))?);
                    }
                    let targets: Vec<usize> = if names.is_empty() {
                        let identity = self.w.db.tables[tid as usize]
                            .identity
                            .as_ref()
                            .map(|x| x.column);
                        (0..columns.len())
                            .filter(|c| Some(*c) != identity)
                            .collect()
                    } else {
                        let mut v = Vec::with_capacity(names.len());
                        for c in names {
                            v.push(
                                columns
                                    .iter()
                                    .position(|x| x.name.eq_ignore_ascii_case(&c.value))
                                    .ok_or_else(|| SqlError::invalid_column(&c.value))?,
                            );
                        }
                        v
                    };
                    let row = self.build_row(i, tid, None, &columns, &targets, &given)?;
                    record(&row, &nulls, src, "INSERT");
                    self.nowait(i, hints, |x| x.insert_row(i, tid, row))?;
                    n += 1;
                }
            }
        }
        if let Some(o) = &m.output {
            let mut from = source_scope.clone();
            from.push(ACTION.into(), None, Rc::from(vec![ACTION.to_string()]));
            self.emit_output(i, o, &columns, out_rows, Some((&from, out_joins)))?;
        }
        let rules = self.rules;
        rules.rows_modified(self, i, tid);
        Ok(self.wrote(i, CostKind::Update, n))
    }

    /// The first WHEN [NOT] MATCHED clause whose AND condition holds for the row.
    fn merge_clause_for<'m>(
        &mut self,
        i: usize,
        m: &'m sql::ast::Merge,
        matched: bool,
        ctx: &RowCtx,
    ) -> Result<Option<&'m sql::ast::MergeClause>, Interrupt> {
        for c in m.clauses.iter().filter(|c| c.matched == matched) {
            let holds = match &c.condition {
                Some(cond) => self.eval(i, cond, Some(ctx))?.is_true(),
                None => true,
            };
            if holds {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// OUTPUT rows (inserted, deleted) to the client or INTO a table.
    fn emit_output(
        &mut self,
        i: usize,
        o: &Output,
        columns: &[Column],
        rows: Vec<(Vec<Value>, Vec<Value>)>,
        from: Option<(&Scope, Vec<Vec<Value>>)>,
    ) -> Result<(), Interrupt> {
        let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
        let mut scope = Scope::default();
        scope.push("inserted".into(), None, names.clone());
        scope.push("deleted".into(), None, names.clone());
        // After them, the statement's FROM tables, each output row followed by its join.
        let (from_scope, mut joins) = match from {
            Some((s, joins)) => (Some(s), joins.into_iter()),
            None => (None, Vec::new().into_iter()),
        };
        for b in from_scope.iter().flat_map(|s| &s.bindings) {
            scope.push(b.name.clone(), b.table.clone(), Rc::clone(&b.columns));
        }
        // RETURNING's bare `*`: the row, then every FROM table's columns but the target's
        // own (the binding that carries its slot), as the server returns them.
        let others: Vec<&crate::exec::expr::Binding> = from_scope
            .iter()
            .flat_map(|s| &s.bindings)
            .filter(|b| visible(b) == b.columns.len())
            .collect();
        // OUTPUT's `inserted.*` / `deleted.*` (RETURNING's row); any other qualifier
        // names a FROM table. RETURNING's parser qualifies a bare `*` as `inserted.*` or
        // `deleted.*` with an empty span: no text wrote that qualifier.
        let is_side = |q: &sql::ast::Ident| {
            q.value.eq_ignore_ascii_case("inserted") || q.value.eq_ignore_ascii_case("deleted")
        };
        if !self.rules.output_tables() {
            // A side the script wrote itself in a column (the parser's have an empty span).
            let mut refs = Vec::new();
            for it in &o.items {
                match it {
                    SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                        crate::syntax::column_refs(expr, &mut refs)
                    }
                    // (`inserted.*` cannot be told from the parser's `t.*`, which
                    // keeps its text's span: it passes.)
                    SelectItem::Wildcard { .. } => {}
                }
            }
            let written = refs.into_iter().find(|n| {
                n.parts.len() >= 2 && {
                    let q = &n.parts[n.parts.len() - 2];
                    is_side(q) && !q.span.is_empty()
                }
            });
            if let Some(name) = written {
                return Err(SqlError::unbound_identifier(name).into());
            }
        }
        let bare_star = |q: &Option<sql::ast::Ident>| {
            q.as_ref().is_none_or(|q| q.span.is_empty()) && !others.is_empty()
        };
        // A FROM table's visible values in an output row (the row, the old row, the join).
        let join_at = 2 * names.len();
        let from_values = |row: &[Value], b: &crate::exec::expr::Binding| {
            let at = join_at + b.offset;
            row.get(at..at + visible(b)).unwrap_or_default().to_vec()
        };
        let mut out_cols = Vec::new();
        for it in &o.items {
            match it {
                SelectItem::Wildcard {
                    qualifier: Some(q), ..
                } if !is_side(q) => {
                    let mut bindings = from_scope.iter().flat_map(|s| s.star(Some(q))).peekable();
                    if bindings.peek().is_none() {
                        return Err(SqlError::unknown_star_prefix(&q.value).into());
                    }
                    for b in bindings {
                        out_cols.extend(b.columns[..visible(b)].iter().cloned());
                    }
                }
                SelectItem::Wildcard { qualifier, .. } => {
                    out_cols.extend(names.iter().cloned());
                    if bare_star(qualifier) {
                        for b in &others {
                            out_cols.extend(b.columns.iter().cloned());
                        }
                    }
                }
                SelectItem::Expr { expr, alias } => out_cols.push(match (alias, &expr.kind) {
                    (Some(a), _) => a.value.clone(),
                    (None, ExprKind::Column(n)) => n.name().value.clone(),
                    _ => self.rules.unnamed_column(expr, &self.w.frame_source(i)),
                }),
                SelectItem::Assign { var, .. } => out_cols.push(var.value.clone()),
            }
        }
        let assigns = !o.items.is_empty()
            && o.items
                .iter()
                .all(|it| matches!(it, SelectItem::Assign { .. }));
        if assigns {
            // RETURNING ... INTO variables: the last row's values, no result set; where the
            // dialect's INTO takes one row, no row sets NULLs and more than one fails.
            if self.rules.assigns_first_row_or_null() {
                if rows.len() > 1 {
                    return Err(SqlError::too_many_rows().into());
                }
                if rows.is_empty() && is_strict(&o.items) {
                    return Err(SqlError::strict_no_rows().into());
                }
                if rows.is_empty() {
                    for it in &o.items {
                        if let SelectItem::Assign { var, .. } = it {
                            self.assign_var(i, &var.value, Value::Null)?;
                        }
                    }
                    return Ok(());
                }
            }
            for (new, old) in rows {
                let mut row = new.clone();
                row.extend(old.iter().cloned());
                row.extend(joins.next().unwrap_or_default());
                let ctx = RowCtx::new(&scope, &row);
                for it in &o.items {
                    if let SelectItem::Assign { var, expr, .. } = it {
                        let v = self.eval(i, expr, Some(&ctx))?;
                        self.assign_var(i, &var.value, v)?;
                    }
                }
            }
            return Ok(());
        }
        let mut out_rows = Vec::new();
        for (new, old) in rows {
            let mut row = new.clone();
            row.extend(old.iter().cloned());
            row.extend(joins.next().unwrap_or_default());
            let ctx = RowCtx::new(&scope, &row);
            let mut r = Vec::new();
            for it in &o.items {
                match it {
                    SelectItem::Wildcard {
                        qualifier: Some(q), ..
                    } if !is_side(q) => {
                        for b in from_scope.iter().flat_map(|s| s.star(Some(q))) {
                            r.extend(from_values(&row, b));
                        }
                    }
                    SelectItem::Wildcard { qualifier, .. } => {
                        let deleted = qualifier
                            .as_ref()
                            .is_some_and(|q| q.value.eq_ignore_ascii_case("deleted"));
                        r.extend(if deleted {
                            old.iter().cloned()
                        } else {
                            new.iter().cloned()
                        });
                        if bare_star(qualifier) {
                            for b in &others {
                                r.extend(from_values(&row, b));
                            }
                        }
                    }
                    SelectItem::Expr { expr, .. } | SelectItem::Assign { expr, .. } => {
                        r.push(self.eval(i, expr, Some(&ctx))?)
                    }
                }
            }
            out_rows.push(r);
        }
        match &o.into {
            None => self.add_result(
                i,
                ResultSet {
                    columns: out_cols,
                    rows: out_rows,
                },
            ),
            Some(into) => {
                let cols: Vec<sql::ast::Ident> = into.columns.clone();
                let rows: Vec<Vec<Expr>> = out_rows
                    .into_iter()
                    .map(|r| {
                        r.into_iter()
                            .map(|v| Expr {
                                kind: ExprKind::Literal(to_literal(v)),
                                span: 0..0,
                            })
                            .collect()
                    })
                    .collect();
                let ins = sql::ast::Insert {
                    ctes: vec![],
                    top: None,
                    target: into.target.clone(),
                    columns: cols,
                    output: None,
                    source: InsertSource::Values(rows),
                    on_conflict: None,
                };
                let saved = (self.w.sessions[i].rowcount, self.frame(i).found);
                self.insert_inner(i, &ins)?;
                self.w.sessions[i].rowcount = saved.0;
                self.frame_mut(i).found = saved.1;
            }
        }
        Ok(())
    }

    /// Whether `event` fires a trigger (callers skip copying the rows for one otherwise).
    fn has_triggers(&self, tid: u32, event: DmlEvent) -> bool {
        self.w.db.tables[tid as usize]
            .triggers
            .iter()
            .any(|t| t.enabled && t.events.contains(&event))
    }

    /// Runs AFTER triggers of `event` with the inserted/deleted pseudo-tables.
    fn fire_triggers(
        &mut self,
        i: usize,
        tid: u32,
        event: DmlEvent,
        inserted: Vec<Vec<Value>>,
        deleted: Vec<Vec<Value>>,
    ) -> Result<(), Interrupt> {
        // RECURSIVE_TRIGGERS is OFF (SQL Server's default): a trigger's own statements do
        // not fire it again. Other triggers nest, up to 32 levels (217).
        let running = self.w.running_triggers.last().cloned();
        let triggers: Vec<_> = self.w.db.tables[tid as usize]
            .triggers
            .iter()
            .filter(|t| t.enabled && t.events.contains(&event))
            .filter(|t| running.as_deref() != Some(t.name.as_str()))
            .cloned()
            .collect();
        if triggers.is_empty() {
            return Ok(());
        }
        if self.nest_level(i) >= crate::exec::stmt::MAX_NESTING {
            return Err(SqlError::nesting_exceeded().into());
        }
        let columns = self.w.db.tables[tid as usize]
            .columns
            .iter()
            .map(|c| c.name.clone())
            .collect();
        self.w.trigger_rows.push(TriggerRows {
            columns,
            inserted,
            deleted,
        });
        let mut result = Ok(());
        'outer: for t in triggers {
            if t.instead_of {
                result = Err(SqlError::not_simulated("INSTEAD OF triggers").into());
                break;
            }
            self.w.running_triggers.push(t.name.clone());
            for stmt in t.body.iter() {
                let ran = self.run_trigger_stmt(i, stmt);
                if matches!(ran, Ok(Returned::Yes)) {
                    break;
                }
                if let Err(e) = ran {
                    // A trigger runs with XACT_ABORT on: its error (a THROW's too) ends
                    // the batch and the transaction.
                    if matches!(e, Interrupt::Error(_)) {
                        self.w.sessions[i].error_in_trigger = true;
                    }
                    result = Err(e);
                    self.w.running_triggers.pop();
                    break 'outer;
                }
            }
            self.w.running_triggers.pop();
        }
        self.w.trigger_rows.pop();
        result
    }

    /// Runs one statement of a trigger's body; `Returned::Yes` once a RETURN ends it.
    fn run_trigger_stmt(&mut self, i: usize, stmt: &sql::ast::Stmt) -> Result<Returned, Interrupt> {
        use sql::ast::StmtKind;
        match &stmt.kind {
            StmtKind::Block(b) => {
                for s in b {
                    if self.run_trigger_stmt(i, s)? == Returned::Yes {
                        return Ok(Returned::Yes);
                    }
                }
                Ok(Returned::No)
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                if self.eval(i, cond, None)?.is_true() {
                    self.run_trigger_stmt(i, then)
                } else if let Some(o) = otherwise {
                    self.run_trigger_stmt(i, o)
                } else {
                    Ok(Returned::No)
                }
            }
            StmtKind::SetOption(_) | StmtKind::Empty => Ok(Returned::No),
            StmtKind::Return(None) => Ok(Returned::Yes),
            // RAISERROR does not obey a trigger's XACT_ABORT: its error is reported and
            // the trigger goes on (the classic check raises it, then rolls back).
            StmtKind::RaisError(_) => match self.exec_statement(i, stmt) {
                Err(Interrupt::Error(e)) => {
                    if self.try_catches(i, e.number) {
                        return Err(SqlError::not_simulated(
                            "RAISERROR inside a trigger that a TRY block around the statement catches",
                        )
                        .into());
                    }
                    self.w.sessions[i].last_error = e.number as i64;
                    self.record_error(i, &e, false);
                    Ok(Returned::No)
                }
                other => other.map(|_| Returned::No),
            },
            // ROLLBACK undoes the whole transaction, the statement that fired the
            // trigger included, and the batch ends with 3609 (the trigger's statements
            // after it are not run here).
            StmtKind::RollbackTran { name: None, .. } if self.w.sessions[i].txn.is_some() => {
                self.rollback(i, "ROLLBACK in a trigger");
                Err(SqlError::transaction_ended_in_trigger().into())
            }
            StmtKind::Insert(_)
            | StmtKind::Update(_)
            | StmtKind::Delete(_)
            | StmtKind::Select(_)
            | StmtKind::Declare(_)
            | StmtKind::Throw(Some(_))
            | StmtKind::Print(_)
            | StmtKind::SetVar { .. } => {
                let reads = self.w.query_reads;
                self.exec_statement(i, stmt)?;
                self.w.query_reads += reads;
                Ok(Returned::No)
            }
            _ => Err(SqlError::not_simulated(&format!(
                "{} inside a trigger",
                sql::statement_label(&stmt.kind)
            ))
            .into()),
        }
    }

    /// Whether a TRY block of session `i` (in any frame) would catch error `number`.
    fn try_catches(&self, i: usize, number: u32) -> bool {
        (self.w.sessions[i].frames.iter()).any(|f| f.tries.iter().any(|t| t.catches(number)))
    }

    /// Runs `s`, parsed from `text`, against the current state, outside any session's
    /// transaction (a check's or `--query`'s SELECT): no locks, uncommitted rows seen.
    pub(crate) fn query_now(&mut self, s: &Select, text: &str) -> Result<QueryOut, SqlError> {
        let i = self.w.sessions.len();
        let owner_name = "query".to_string();
        let mut probe = self.probe(owner_name);
        probe.options.isolation = IsolationLevel::ReadUncommitted;
        // Its statement begins now: a versioned read sees what is committed.
        probe.statement_seq = self.w.db.commit_seq;
        // The query's own text, where a dialect finds the names of unnamed columns
        // (`count` for `count(*)`).
        probe.source_text = text.into();
        self.w.sessions.push(probe);
        self.w.sessions[i]
            .frames
            .push(crate::state::session::Frame::new(
                std::rc::Rc::new(crate::state::program::Code::default()),
                crate::state::session::FrameKind::Batch,
                i,
            ));
        let was = self.w.tracing;
        self.w.tracing = false;
        // Subquery results are kept by the subquery's address: a query parsed now may
        // sit where an earlier one did, so it starts with none and leaves the ones of
        // the statement it interrupts as they were.
        let kept = std::mem::take(&mut self.w.subquery_results);
        let r = self.run_select(i, s, None);
        self.w.subquery_results = kept;
        self.w.tracing = was;
        self.w.sessions.pop();
        match r {
            Ok(o) => Ok(o),
            Err(Interrupt::Error(e)) => Err(*e),
            Err(Interrupt::Block) => Err(SqlError::generic(0, 16, "query would wait for a lock")),
        }
    }
}

/// SQL Server's default MAXRECURSION for a recursive CTE.
const MAX_RECURSION: u32 = 100;
/// Queries nested inside each other (subqueries, derived tables, CTEs) at most this deep.
const MAX_QUERY_DEPTH: usize = 64;

/// The members of a set-operation chain, each with the operator before it.
fn select_chain(s: &Select) -> Vec<(Option<SetOp>, &Select)> {
    let mut out = vec![(None, s)];
    let mut at = s;
    while let Some((op, next)) = &at.set_op {
        out.push((Some(*op), next));
        at = next;
    }
    out
}

/// Whether one member's FROM names `name` (a recursive CTE's reference to itself).
fn from_names(s: &Select, name: &str) -> bool {
    let is = |f: &TableFactor| {
        matches!(f, TableFactor::Table { name: n, .. }
            if n.parts.len() == 1 && n.name().value.eq_ignore_ascii_case(name))
    };
    s.from
        .iter()
        .any(|t| is(&t.factor) || t.joins.iter().any(|j| is(&j.factor)))
}

/// Msg 8672: a MERGE matched one target row with more than one source row.
/// MERGE's OUTPUT column for each row's action: `INSERT`, `UPDATE` or `DELETE`.
const ACTION: &str = "$action";

fn merge_twice() -> SqlError {
    SqlError::generic(
        8672,
        16,
        "The MERGE statement attempted to UPDATE or DELETE the same row more than once. This happens when a target row matches more than one source row. A MERGE statement cannot UPDATE/DELETE the same row of the target table multiple times. Refine the ON clause to ensure a target row matches at most one source row, or use the GROUP BY clause to group the source rows.",
    )
}

/// The version of a row a scan that takes no row lock reads: the newest (dirty reads and
/// table locks), the snapshot's, or the newest committed as the statement starts.
fn unlocked_version<'r>(
    slot: &'r crate::state::storage::RowSlot,
    lk: &Locking,
    own: Option<u32>,
) -> Option<&'r Vec<Value>> {
    if lk.dirty || lk.table.is_some() {
        slot.latest()
    } else if let Some(seq) = lk.snapshot {
        slot.visible_at(seq, own)
    } else {
        slot.latest()
    }
}

fn show(v: &Value) -> String {
    match v {
        // Built directly: every UPDATE event shows each changed value twice.
        Value::Text(s) => {
            let mut out = String::with_capacity(s.len() + 2);
            out.push('\'');
            out.push_str(s);
            out.push('\'');
            out
        }
        other => other.to_string(),
    }
}

/// The expression a predicate pins `column` to (`column = expr` with no column of this
/// table on the other side), if any.
/// Whether a query locks the rows it reads (FOR UPDATE, FOR SHARE and their kin on a
/// table it reads).
fn locks_rows(s: &Select) -> bool {
    let locking = |hints: &[TableHint]| {
        hints.iter().any(|h| {
            matches!(
                h.kind,
                HintKind::ForUpdate
                    | HintKind::ForNoKeyUpdate
                    | HintKind::ForShare
                    | HintKind::ForKeyShare
            )
        })
    };
    (s.from.iter())
        .flat_map(|t| std::iter::once(&t.factor).chain(t.joins.iter().map(|j| &j.factor)))
        .any(|f| matches!(f, TableFactor::Table { hints, .. } if locking(hints)))
}

/// An integer, decimal or floating type: text compared with one is read as a number.
fn numeric(ty: &DataType) -> bool {
    matches!(
        ty,
        DataType::TinyInt
            | DataType::SmallInt
            | DataType::Int
            | DataType::BigInt
            | DataType::ByteInt
            | DataType::Decimal { .. }
            | DataType::Float
            | DataType::Money
    )
}

/// Whether `v` lies within every bound (a comparison with NULL holds none).
fn within(v: &Value, bounds: &[(BinaryOp, Value)]) -> bool {
    bounds.iter().all(|(op, b)| match compare(v, b) {
        None => false,
        Some(o) => match op {
            BinaryOp::Lt => o == Ordering::Less,
            BinaryOp::Le => o != Ordering::Greater,
            BinaryOp::Gt => o == Ordering::Greater,
            BinaryOp::Ge => o != Ordering::Less,
            _ => o == Ordering::Equal,
        },
    })
}

/// Date and time types, whose values compare as points in time.
fn temporal(ty: &DataType) -> bool {
    matches!(
        ty,
        DataType::Date | DataType::DateTime | DataType::DateTime2(_)
    )
}

/// The bounds `preds` put on `column`, each as `(op, value)` with the column on the left
/// (`5 < id` is `id > 5`; `id BETWEEN a AND b` is `id >= a` and `id <= b`), the value
/// naming none of `scope`'s columns.
fn range_bounds<'e>(preds: &[&'e Expr], column: &str, scope: &Scope) -> Vec<(BinaryOp, &'e Expr)> {
    let is_column = |e: &Expr| {
        matches!(&e.kind, ExprKind::Column(n)
            if n.name().value.eq_ignore_ascii_case(column)
                && scope.resolve(n).ok().flatten().is_some())
    };
    let mut out = Vec::new();
    for p in preds {
        match &p.kind {
            ExprKind::Binary {
                op: op @ (BinaryOp::Eq | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge),
                left,
                right,
            } => {
                if is_column(left) && !mentions_scope(right, scope) {
                    out.push((*op, &**right));
                } else if is_column(right) && !mentions_scope(left, scope) {
                    let flipped = match op {
                        BinaryOp::Lt => BinaryOp::Gt,
                        BinaryOp::Le => BinaryOp::Ge,
                        BinaryOp::Gt => BinaryOp::Lt,
                        BinaryOp::Ge => BinaryOp::Le,
                        other => *other,
                    };
                    out.push((flipped, &**left));
                }
            }
            ExprKind::Between {
                expr,
                low,
                high,
                negated: false,
            } if is_column(expr) && !mentions_scope(low, scope) && !mentions_scope(high, scope) => {
                out.push((BinaryOp::Ge, &**low));
                out.push((BinaryOp::Le, &**high));
            }
            _ => {}
        }
    }
    out
}

/// Whether a trigger's statement was a RETURN, which ends the trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Returned {
    Yes,
    No,
}

/// Whether a condition compares `column` in a way a B-tree on it can search: `=`, `<`,
/// `<=`, `>`, `>=`, BETWEEN or IN (not `<>`).
fn indexable_on(p: &Expr, column: &str) -> bool {
    let is_column = |e: &Expr| matches!(&e.kind, ExprKind::Column(n) if n.name().value.eq_ignore_ascii_case(column));
    match &p.kind {
        ExprKind::Binary {
            op: BinaryOp::Eq | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge,
            left,
            right,
        } => is_column(left) || is_column(right),
        ExprKind::Between {
            expr,
            negated: false,
            ..
        }
        | ExprKind::InList {
            expr,
            negated: false,
            ..
        } => is_column(expr),
        _ => false,
    }
}

fn equality_expr<'e>(preds: &[&'e Expr], column: &str, scope: &Scope) -> Option<&'e Expr> {
    for p in preds {
        if let ExprKind::Binary {
            op: BinaryOp::Eq,
            left,
            right,
        } = &p.kind
        {
            for (a, b) in [(left, right), (right, left)] {
                if let ExprKind::Column(n) = &a.kind {
                    if n.name().value.eq_ignore_ascii_case(column)
                        && scope.resolve(n).ok().flatten().is_some()
                        && !mentions_scope(b, scope)
                    {
                        return Some(b);
                    }
                }
            }
        }
    }
    None
}

/// The conjuncts of `where_clause` and of FROM's inner joins' ON conditions whose columns
/// all belong to `own` (and that hold no subquery), ANDed: what a scan of that table alone
/// can filter and seek by.
fn target_only(where_clause: Option<&Expr>, from: &[TableRef], own: &Scope) -> Option<Expr> {
    let ons = from
        .iter()
        .flat_map(|tr| &tr.joins)
        .filter(|j| j.kind == JoinKind::Inner)
        .filter_map(|j| j.on.as_ref());
    let mut picked: Option<Expr> = None;
    for c in where_clause.into_iter().chain(ons).flat_map(conjuncts) {
        let mut own_only = !crate::syntax::has_subquery(c);
        crate::syntax::walk(c, &mut |x| {
            if let ExprKind::Column(n) = &x.kind {
                own_only &= own.resolve(n).ok().flatten().is_some();
            }
        });
        if own_only {
            picked = Some(match picked {
                None => c.clone(),
                Some(p) => Expr {
                    span: p.span.clone(),
                    kind: ExprKind::Binary {
                        op: BinaryOp::And,
                        left: Box::new(p),
                        right: Box::new(c.clone()),
                    },
                },
            });
        }
    }
    picked
}

fn mentions_scope(e: &Expr, scope: &Scope) -> bool {
    let mut hit = false;
    crate::syntax::walk(e, &mut |x| {
        if let ExprKind::Column(n) = &x.kind {
            if scope.resolve(n).ok().flatten().is_some() {
                hit = true;
            }
        }
    });
    hit
}

fn rows_equal(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x.is_null() && y.is_null()) || compare(x, y) == Some(Ordering::Equal))
}

fn dedup(rows: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    let mut set = RowSet::default();
    for r in rows {
        set.insert(r);
    }
    set.rows
}

/// Distinct rows in the order first seen, equal as `rows_equal` says. While every column
/// holds one kind of value (NULLs aside) equality is a total order's, so a row is found by
/// binary search in `sorted`; a mix of kinds (where `compare` is not transitive) falls
/// back to comparing with each row, as `rows_equal` alone would.
#[derive(Default)]
struct RowSet {
    rows: Vec<Vec<Value>>,
    /// Positions in `rows`, in key order; unused once `mixed`.
    sorted: Vec<usize>,
    /// Each column's kind of value (`kind`), `None` while only NULLs were seen.
    kinds: Vec<Option<u8>>,
    mixed: bool,
}

impl RowSet {
    /// The position of the row equal to `row`, if any.
    fn find(&self, row: &[Value]) -> Option<usize> {
        if !self.mixed && self.fits(row) {
            return self
                .sorted
                .binary_search_by(|&p| cmp_homogeneous(&self.rows[p], row))
                .ok()
                .map(|k| self.sorted[k]);
        }
        self.rows.iter().position(|x| rows_equal(x, row))
    }

    /// Whether `row` keeps every column to one kind of value.
    fn fits(&self, row: &[Value]) -> bool {
        (self.rows.is_empty() || row.len() == self.kinds.len())
            && row.iter().enumerate().all(|(c, v)| match kind(v) {
                None => true,
                Some(k) => {
                    k != u8::MAX && self.kinds.get(c).is_none_or(|&s| s.is_none_or(|s| s == k))
                }
            })
    }

    /// Adds `row` unless an equal row is there; returns its position and whether it is new.
    fn insert(&mut self, row: Vec<Value>) -> (usize, bool) {
        if let Some(p) = self.find(&row) {
            return (p, false);
        }
        let p = self.rows.len();
        if !self.mixed && self.fits(&row) {
            if self.kinds.is_empty() {
                self.kinds = vec![None; row.len()];
            }
            for (c, v) in row.iter().enumerate() {
                if let Some(k) = kind(v) {
                    self.kinds[c] = Some(k);
                }
            }
            let at = self
                .sorted
                .partition_point(|&q| cmp_homogeneous(&self.rows[q], &row) == Ordering::Less);
            self.sorted.insert(at, p);
        } else {
            self.mixed = true;
            self.sorted = Vec::new();
        }
        self.rows.push(row);
        (p, true)
    }
}

/// A value's kind for `RowSet`: `None` for NULL, `u8::MAX` for a value that never equals
/// itself (NaN).
fn kind(v: &Value) -> Option<u8> {
    match v {
        Value::Null => None,
        Value::Int(_) => Some(0),
        Value::Decimal(d) if d.is_nan() => Some(u8::MAX),
        Value::Decimal(_) => Some(1),
        Value::Text(_) => Some(2),
        Value::DateTime(..) => Some(3),
        Value::True | Value::False => Some(4),
    }
}

/// Orders rows whose columns each hold one kind of value: NULL first, then `compare`
/// (a total order within one kind); equal exactly when `rows_equal`.
fn cmp_homogeneous(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x.is_null(), y.is_null()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => compare(x, y).unwrap_or(Ordering::Equal),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// The pairs of rows one join may compare, as many as one result may hold. The
/// simulator joins by nested loops and keeps a join's rows in memory (a server streams
/// them through a hash or merge join): a cross join of three 200-row tables made 8
/// million rows, gigabytes that took the tab down, and two 4 000-row tables took seconds.
const MAX_JOIN_PAIRS: usize = crate::exec::MAX_ROWS;

/// Fails when one join would compare more than [`MAX_JOIN_PAIRS`] pairs of rows.
fn join_pairs_fit(pairs: usize) -> Result<(), Interrupt> {
    if pairs > MAX_JOIN_PAIRS {
        return Err(SqlError::limit(format!(
            "a join compares more than {MAX_JOIN_PAIRS} pairs of rows, the most the \
             simulator compares in one join"
        ))
        .into());
    }
    Ok(())
}

fn cross(left: &[Vec<Value>], right: &[Vec<Value>]) -> Vec<Vec<Value>> {
    let mut out = Vec::with_capacity(left.len() * right.len());
    for l in left {
        for r in right {
            let mut row = l.clone();
            row.extend(r.iter().cloned());
            out.push(row);
        }
    }
    out
}

#[allow(dead_code)]
fn _unused(_: &pages::ColType, _: &ObjectName) -> String {
    display_name(&ObjectName {
        parts: vec![],
        span: 0..0,
    })
}

/// ORDER BY as the scan of one table evaluates it on its rows: a position (`ORDER BY
/// 2`) and a select-list alias that is not a column of the table (`prio AS p ...
/// ORDER BY p`) become the expression they name, as the rows are ordered after the
/// select list elsewhere (`order_value`). A position past the list stays a constant.
fn order_in_scan<'o>(
    order: &'o [OrderItem],
    items: &[SelectItem],
    t: &crate::state::storage::Table,
) -> Cow<'o, [OrderItem]> {
    // Every claim's SELECT comes here: the usual ORDER BY of columns is used as it is.
    let names_output = |o: &OrderItem| match &o.expr.kind {
        ExprKind::Literal(sql::ast::Literal::Int(_)) => true,
        ExprKind::Column(n) => n.parts.len() == 1 && t.column(&n.name().value).is_none(),
        _ => false,
    };
    if !order.iter().any(names_output) {
        return Cow::Borrowed(order);
    }
    let column = |name: &str| Expr {
        kind: ExprKind::Column(sql::ast::ObjectName {
            parts: vec![sql::ast::Ident {
                value: name.to_string(),
                span: 0..0,
            }],
            span: 0..0,
        }),
        span: 0..0,
    };
    // The select list's expressions in output order, `*` as the table's columns.
    let outputs = || {
        items.iter().flat_map(|it| match it {
            SelectItem::Wildcard { .. } => {
                t.columns.iter().map(|c| (column(&c.name), None)).collect()
            }
            SelectItem::Expr { expr, alias } => vec![(expr.clone(), alias.as_ref())],
            SelectItem::Assign { expr, .. } => vec![(expr.clone(), None)],
        })
    };
    order
        .iter()
        .map(|o| {
            let named = match &o.expr.kind {
                ExprKind::Literal(sql::ast::Literal::Int(n)) if *n >= 1 => {
                    outputs().nth(*n as usize - 1).map(|(e, _)| e)
                }
                ExprKind::Column(n)
                    if n.parts.len() == 1 && t.column(&n.name().value).is_none() =>
                {
                    outputs()
                        .find(|(_, a)| {
                            a.is_some_and(|a| a.value.eq_ignore_ascii_case(&n.name().value))
                        })
                        .map(|(e, _)| e)
                }
                _ => None,
            };
            match named {
                Some(expr) => OrderItem { expr, ..o.clone() },
                None => o.clone(),
            }
        })
        .collect::<Vec<_>>()
        .into()
}

/// Whether rows `a` and `b` of `t` have the same clustered key.
fn same_key(t: &crate::state::storage::Table, a: &[Value], b: &[Value]) -> bool {
    t.key
        .iter()
        .all(|&c| compare(&a[c], &b[c]) == Some(Ordering::Equal))
}

/// Whether a unique violation is one `ON CONFLICT` names (any unique index when it names
/// none): by the index's columns, or by its name (the message quotes it).
fn arbiter(e: &SqlError, c: &sql::ast::OnConflict) -> bool {
    if !matches!(e.number, 2601 | 2627) {
        return false;
    }
    if let Some(name) = &c.constraint {
        let quoted = crate::error::quoted_after(&e.message, " constraint '")
            .or_else(|| crate::error::quoted_after(&e.message, " index '"));
        return quoted.is_some_and(|q| q.eq_ignore_ascii_case(&name.value));
    }
    if c.columns.is_empty() {
        return true;
    }
    // The same columns in any order: `check_arbiters` took the index by its set.
    let wanted: Vec<String> = c.columns.iter().map(|c| c.value.to_lowercase()).collect();
    e.key.as_deref().is_some_and(|(columns, _)| {
        let named: Vec<String> = columns.split(", ").map(str::to_lowercase).collect();
        named.iter().all(|n| wanted.contains(n)) && wanted.iter().all(|w| named.contains(w))
    })
}

/// 2627 for `row`, whose primary key another row has (`slot`: where `row` is or would be
/// filed, which names a heap's row).
fn primary_key_clash(t: &crate::state::storage::Table, row: &[Value], slot: RowId) -> SqlError {
    let pk = t.pk_name.clone().unwrap_or_default();
    let values = t.key_text_of(Some(row), slot);
    let columns = t
        .key
        .iter()
        .map(|&c| t.columns[c].name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    SqlError::duplicate_primary_key(&pk, &t.name, &values).with_key(columns, values.to_string())
}

/// Where an output column of the select list comes from: a column of the FROM row (by
/// its position there), or an expression's canonical text.
#[derive(PartialEq)]
enum Origin {
    Row(usize),
    Text(String),
}

/// `ORDER BY id` where two output columns are named `id` and hold different things
/// (`a.id, b.id`, `v AS id, id`, `*` over a join) is ambiguous (Msg 209, which each
/// dialect words); the same column twice (`id, id`) is not. Only a bare
/// name that matches an output column is at stake: anything else names the FROM row.
fn ambiguous_order_by(
    items: &[SelectItem],
    columns: &[String],
    scope: &Scope,
    order_by: &[sql::ast::OrderItem],
) -> Result<(), Interrupt> {
    for o in order_by {
        let ExprKind::Column(n) = &o.expr.kind else {
            continue;
        };
        let name = &n.name().value;
        if n.parts.len() != 1
            || columns
                .iter()
                .filter(|c| c.eq_ignore_ascii_case(name))
                .nth(1)
                .is_none()
        {
            continue;
        }
        let mut origins: Vec<Origin> = Vec::new();
        for it in items {
            match it {
                SelectItem::Wildcard { qualifier, .. } => {
                    for b in scope.star(qualifier.as_ref()) {
                        let cols = b.columns[..visible(b)].iter().enumerate();
                        origins.extend(
                            cols.filter(|(_, c)| c.eq_ignore_ascii_case(name))
                                .map(|(k, _)| Origin::Row(b.offset + k)),
                        );
                    }
                }
                SelectItem::Expr { expr, alias } => {
                    let output = match (alias, &expr.kind) {
                        (Some(a), _) => &a.value,
                        (None, ExprKind::Column(c)) => &c.name().value,
                        (None, _) => continue,
                    };
                    if !output.eq_ignore_ascii_case(name) {
                        continue;
                    }
                    origins.push(match &expr.kind {
                        ExprKind::Column(c) => match scope.resolve(c) {
                            Ok(Some(p)) => Origin::Row(p),
                            _ => Origin::Text(expr.to_string()),
                        },
                        _ => Origin::Text(expr.to_string()),
                    });
                }
                SelectItem::Assign { .. } => {}
            }
        }
        if origins.iter().any(|o| *o != origins[0]) {
            return Err(SqlError::ambiguous_order_by(n).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{dedup, Value};

    fn t(s: &str) -> Value {
        Value::Text(s.into())
    }

    #[test]
    fn dedup_keeps_first_rows_under_the_collation() {
        let rows = vec![
            vec![t("b"), Value::Int(1)],
            vec![t("A"), Value::Null],
            vec![t("B "), Value::Int(1)],
            vec![t("a"), Value::Null],
            vec![t("a"), Value::Int(2)],
        ];
        let want = vec![
            vec![t("b"), Value::Int(1)],
            vec![t("A"), Value::Null],
            vec![t("a"), Value::Int(2)],
        ];
        assert_eq!(dedup(rows), want);
    }

    #[test]
    fn dedup_with_mixed_kinds_compares_each_row() {
        // 'x' and 1 do not compare; '1' equals 1 and 1.0.
        let rows = vec![
            vec![Value::Int(1)],
            vec![t("x")],
            vec![t("1")],
            vec![Value::Decimal(1.0)],
            vec![t("X")],
        ];
        assert_eq!(dedup(rows), vec![vec![Value::Int(1)], vec![t("x")]]);
    }
}
