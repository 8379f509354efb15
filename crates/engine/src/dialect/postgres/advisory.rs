//! Advisory locks (semantics.md C2): `pg_advisory_lock(key)` and its kin lock a number
//! that means what the application says. Session locks last until unlocked or the
//! session ends (a ROLLBACK keeps them), stack (two locks need two unlocks) and wait;
//! `_xact_` locks end with the transaction; `pg_try_` ones answer at once; `_shared`
//! ones share with each other.

use crate::error::SqlError;
use crate::event::{Event, ReleaseReason};
use crate::exec::{Exec, Interrupt};
use crate::state::locks::{LockMode, OwnerId, Resource};
use crate::value::Value;

/// What an advisory lock function asks for.
struct Call<'a> {
    /// Transaction scope (`_xact_`), else session scope.
    xact: bool,
    try_only: bool,
    mode: LockMode,
    /// The try variant's name, as the trace shows a refusal.
    function: &'static str,
    /// The function called, as an error names it.
    name: &'a str,
}

/// Whether `name` (upper-cased) is an advisory lock function.
pub(super) fn is_lock_function(name: &str) -> bool {
    name.starts_with("PG_") && name.contains("ADVISORY_")
}

/// Runs `name` when it is an advisory lock function.
pub(super) fn call(
    x: &mut Exec<'_>,
    i: usize,
    name: &str,
    args: &[Value],
) -> Option<Result<Value, Interrupt>> {
    let rest = name.strip_prefix("PG_")?;
    if rest == "ADVISORY_UNLOCK_ALL" {
        return Some(once(x, i, |x, _| Ok(unlock_all(x, i))));
    }
    let (try_only, rest) = match rest.strip_prefix("TRY_") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (mode, rest) = match rest.strip_suffix("_SHARED") {
        Some(r) => (LockMode::S, r),
        None => (LockMode::X, rest),
    };
    let xact = match rest {
        "ADVISORY_LOCK" => false,
        "ADVISORY_XACT_LOCK" => true,
        "ADVISORY_UNLOCK" if !try_only => {
            return Some(once(x, i, |x, _| unlock(x, i, name, args, mode)))
        }
        _ => return None,
    };
    let function = match (xact, mode) {
        (false, LockMode::X) => "pg_try_advisory_lock",
        (false, _) => "pg_try_advisory_lock_shared",
        (true, LockMode::X) => "pg_try_advisory_xact_lock",
        (true, _) => "pg_try_advisory_xact_lock_shared",
    };
    let call = Call {
        xact,
        try_only,
        mode,
        function,
        name,
    };
    Some(once(x, i, |x, woken| lock(x, i, args, call, woken)))
}

/// Runs a lock function's call once in its statement: a statement run again after a
/// wait (for a row, or for this very lock) takes what its earlier calls returned rather
/// than lock or unlock again, so each call counts once, as on the server, where
/// `pg_advisory_lock(1), pg_advisory_lock(1)` needs two unlocks. `woken` tells the call
/// that waited for its lock, run again, that the lock may have been granted meanwhile.
fn once(
    x: &mut Exec<'_>,
    i: usize,
    call: impl FnOnce(&mut Exec<'_>, bool) -> Result<Value, Interrupt>,
) -> Result<Value, Interrupt> {
    let s = &mut x.w.sessions[i];
    let k = s.effects_used;
    s.effects_used += 1;
    if let Some(v) = s.effects.get(k) {
        return Ok(v.clone());
    }
    let woken = s.effect_waiting == Some(k);
    match call(x, woken) {
        Ok(v) => {
            let s = &mut x.w.sessions[i];
            s.effect_waiting = None;
            s.effects.push(v.clone());
            Ok(v)
        }
        Err(Interrupt::Block) => {
            x.w.sessions[i].effect_waiting = Some(k);
            Err(Interrupt::Block)
        }
        Err(e) => Err(e),
    }
}

/// The lock's resource: one bigint key or two integer keys, as the server keys them.
/// The server resolves the function by its arguments' types: a quoted key is read as
/// that type (22P02 when it is no number), a decimal or a second key past an integer
/// finds no such function (42883).
fn resource(function: &str, args: &[Value]) -> Result<Resource, Interrupt> {
    let key_type = if args.len() == 1 { "bigint" } else { "integer" };
    let mut keys = Vec::with_capacity(args.len());
    for v in args {
        keys.push(match v {
            Value::Int(n) => *n,
            Value::Text(t) => t.trim().parse::<i64>().map_err(|_| {
                SqlError::generic(
                    0,
                    16,
                    format!("invalid input syntax for type {key_type}: \"{t}\""),
                )
                .with_sqlstate("22P02")
            })?,
            _ => i64::MAX,
        });
    }
    let fits = |v: &Value, n: i64| {
        matches!(v, Value::Int(_) | Value::Text(_)) && (args.len() == 1 || i32::try_from(n).is_ok())
    };
    match keys.as_slice() {
        [k] if fits(&args[0], *k) => Ok(Resource::Application {
            name: format!("advisory {k}"),
        }),
        [a, b] if fits(&args[0], *a) && fits(&args[1], *b) => Ok(Resource::Application {
            name: format!("advisory {a},{b}"),
        }),
        _ => {
            let types: Vec<&str> = args.iter().map(super::operators::value_type).collect();
            Err(super::operators::no_such_routine("function", function, &types).into())
        }
    }
}

fn lock(
    x: &mut Exec<'_>,
    i: usize,
    args: &[Value],
    call: Call<'_>,
    woken: bool,
) -> Result<Value, Interrupt> {
    // A strict function: a NULL key gives NULL and locks nothing.
    if args.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let res = resource(call.name, args)?;
    let owner: OwnerId = if call.xact {
        x.ensure_txn(i)
    } else {
        x.w.sessions[i].session_owner
    };
    let covered = |x: &Exec<'_>| {
        (x.w.locks.held(owner, &res)).is_some_and(|(m, _)| m == call.mode || m == LockMode::X)
    };
    if woken && x.w.sessions[i].fresh_locks.contains(&res) && covered(x) {
        // Granted while the statement waited for it, in this mode or a stronger one.
        return Ok(if call.try_only {
            Value::bool(true)
        } else {
            void()
        });
    }
    if call.try_only {
        // The session's own locks (session or transaction scope) never refuse it, also
        // when this owner has locked nothing yet.
        x.w.locks.join_session(owner, i as u32);
        // A holder's lock refuses it, and so does an earlier request it would queue
        // behind: the server grants no try lock past a waiter whose mode conflicts.
        let blockers = x.w.locks.request_blockers(owner, &res, call.mode);
        if !blockers.is_empty() {
            if x.recording() {
                let (holders, queued) = x.blocked_by(&res, call.mode, &blockers);
                let session = x.w.sessions[i].name.clone();
                let resource = x.w.resource_text(&res);
                x.push(Event::LockRefused {
                    session,
                    resource,
                    mode: call.mode,
                    holders,
                    function: call.function,
                    mode_name: None,
                    holder_mode_names: Vec::new(),
                    queued,
                });
            }
            return Ok(Value::bool(false));
        }
        x.lock_as(i, owner, res, call.mode, false)?;
        return Ok(Value::bool(true));
    }
    x.lock_as(i, owner, res, call.mode, false)?;
    Ok(void())
}

/// What a function returning `void` gives: not NULL (`IS NULL` is false), and shown
/// empty, as psql shows it and a driver reads it (`''`).
fn void() -> Value {
    Value::Text("".into())
}

/// `pg_advisory_unlock[_shared](key)`: true, or false (a warning) when not held.
fn unlock(
    x: &mut Exec<'_>,
    i: usize,
    name: &str,
    args: &[Value],
    mode: LockMode,
) -> Result<Value, Interrupt> {
    if args.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    let res = resource(name, args)?;
    let owner = x.w.sessions[i].session_owner;
    if x.w.locks.held(owner, &res).is_none_or(|(m, _)| m != mode) {
        // PostgreSQL's words (ExclusiveLock, ShareLock), sent to the client as a warning.
        let kind = if mode == LockMode::S {
            "ShareLock"
        } else {
            "ExclusiveLock"
        };
        let session = x.w.sessions[i].name.clone();
        x.push(Event::Printed {
            session,
            text: format!("WARNING:  you don't own a lock of type {kind}"),
        });
        return Ok(Value::bool(false));
    }
    let grants = x.w.locks.release(owner, &res);
    released(x, i, &res, owner, mode);
    x.wake(grants);
    Ok(Value::bool(true))
}

/// `pg_advisory_unlock_all()`: every session-scope advisory lock.
fn unlock_all(x: &mut Exec<'_>, i: usize) -> Value {
    let owner = x.w.sessions[i].session_owner;
    for (res, mode) in x.w.locks.locks_of(owner) {
        if !matches!(&res, Resource::Application { name } if name.starts_with("advisory ")) {
            continue;
        }
        while x.w.locks.held(owner, &res).is_some() {
            let grants = x.w.locks.release(owner, &res);
            x.wake(grants);
        }
        released(x, i, &res, owner, mode);
    }
    void()
}

/// The release event once the last count of the lock is gone.
fn released(x: &mut Exec<'_>, i: usize, res: &Resource, owner: OwnerId, mode: LockMode) {
    if x.w.locks.held(owner, res).is_some() {
        return;
    }
    let session = x.w.sessions[i].name.clone();
    let resource = x.w.resource_text(res);
    x.push(Event::LockReleased {
        session,
        resource,
        mode,
        reason: ReleaseReason::Explicit,
        mode_name: None,
    });
}
