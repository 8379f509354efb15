//! `VACUUM [table, ...]`: the space of dead row versions on each table's heap takes new
//! versions again (`state::heap`); the heap keeps its pages. Versions a transaction has
//! written and not yet committed stay, as do those of committed rows; older ones go, as
//! if no snapshot still needed them. PostgreSQL refuses VACUUM in a transaction block.

use sql::ast::ObjectName;

use crate::cost::CostKind;
use crate::error::SqlError;
use crate::exec::{done, Exec, Flow, Interrupt};

pub(super) fn run(x: &mut Exec<'_>, i: usize, tables: &[ObjectName]) -> Result<Flow, Interrupt> {
    if x.w.sessions[i].tran_count > 0 {
        return Err(
            SqlError::generic(0, 16, "VACUUM cannot run inside a transaction block")
                .with_sqlstate("25001")
                .into(),
        );
    }
    let ids: Vec<u32> = if tables.is_empty() {
        (0..x.w.db.tables.len() as u32).collect()
    } else {
        tables
            .iter()
            .map(|t| x.table_id(t))
            .collect::<Result<_, _>>()?
    };
    for id in ids {
        x.w.db.tables[id as usize].vacuum(super::tuple::version_bytes);
    }
    Ok(done(CostKind::Ddl))
}
