//! Column names in correlated subqueries: a qualifier names the alias a query gave its
//! table, so in `(SELECT ... FROM v w WHERE w.g = v.g)` the `v` is the outer query's
//! table, not the inner one aliased `w`, in every dialect.

use engine::{Dialect, Simulation, Value};

use super::support::scenario_in;

/// Each row's id and the rows of its group, counted by a subquery over the same table.
const PER_GROUP: &str =
    "SELECT v.id, (SELECT COUNT(*) FROM v w WHERE w.g = v.g) AS n FROM v ORDER BY v.id";

fn per_group(dialect: Dialect, setup: &str, session: &str) -> (Vec<Vec<Value>>, Vec<Vec<Value>>) {
    let sc = scenario_in(dialect, setup, &[("A", 0, session)]);
    let mut sim = Simulation::new(&sc, 1).unwrap_or_else(|e| panic!("{e:?}"));
    sim.run().unwrap();
    let outcome = sim.outcome();
    let in_session = outcome.sessions[0].results[0].rows.clone();
    let errors = &outcome.sessions[0].errors;
    assert!(errors.is_empty(), "{errors:?}");
    let query = sim.query(PER_GROUP).unwrap_or_else(|e| panic!("{e:?}"));
    (in_session, query.rows)
}

/// Rows 1 and 2 are group a, row 3 group b: (1, 2), (2, 2), (3, 1). Bound to the inner
/// table, `v.g` would be `w.g` and every count 3.
fn expected() -> Vec<Vec<Value>> {
    [(1, 2), (2, 2), (3, 1)]
        .into_iter()
        .map(|(id, n)| vec![Value::Int(id), Value::Int(n)])
        .collect()
}

#[test]
fn tsql_outer_table_name_binds_past_an_inner_alias() {
    let setup = "CREATE TABLE v (id int PRIMARY KEY, g varchar(10));
INSERT INTO v VALUES (1, 'a'), (2, 'a'), (3, 'b');";
    let (session, query) = per_group(Dialect::TSql, setup, &format!("{PER_GROUP};"));
    assert_eq!((session, query), (expected(), expected()));
}

#[test]
fn teradata_outer_table_name_binds_past_an_inner_alias() {
    let setup = "CREATE TABLE v (id INTEGER NOT NULL PRIMARY KEY, g VARCHAR(10));
INSERT INTO v VALUES (1, 'a');
INSERT INTO v VALUES (2, 'a');
INSERT INTO v VALUES (3, 'b');";
    let (session, query) = per_group(Dialect::Teradata, setup, &format!("{PER_GROUP};"));
    assert_eq!((session, query), (expected(), expected()));
}

#[test]
fn postgres_outer_table_name_binds_past_an_inner_alias() {
    let setup = "CREATE TABLE v (id int PRIMARY KEY, g text);
INSERT INTO v VALUES (1, 'a'), (2, 'a'), (3, 'b');";
    let (session, query) = per_group(Dialect::Postgres, setup, &format!("{PER_GROUP};"));
    assert_eq!((session, query), (expected(), expected()));
}
