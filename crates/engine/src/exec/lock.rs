//! Locking: requests to the lock manager on a session's behalf, waits and their
//! timeouts, wake-ups when locks are released, and the deadlock monitor's victims.

use super::{Exec, Interrupt};
use crate::error::SqlError;
use crate::event::{Event, Queued};
use crate::state::locks::{Grant, LockMode, OwnerId, Request, Resource};
use crate::state::session::State;
use crate::state::World;

/// Sessions by name, each with a lock mode.
type Named = Vec<(String, LockMode)>;

/// How the trace and the state view name a wait for `res` in `mode`: as the resource
/// and mode it is, or, for a lock the dialect does not show, as what its server waits
/// on instead (`Rules::hidden_wait`).
pub(crate) fn wait_words(
    rules: &dyn super::Rules,
    w: &World,
    res: &Resource,
    mode: LockMode,
) -> (String, LockMode) {
    if let Resource::Key { table, key, .. } = res {
        if !rules.shows_lock(res, mode) {
            let name = w.db.tables.get(*table as usize).map_or("?", |t| &*t.name);
            if let Some(shown) = rules.hidden_wait(&format!("{name} ({key})")) {
                return shown;
            }
        }
    }
    (w.resource_text(res), mode)
}

impl Exec<'_> {
    /// Requests a lock for session `i`'s transaction; blocks the session when it must wait.
    /// `transient` locks are dropped at the end of the statement.
    pub(crate) fn lock(
        &mut self,
        i: usize,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<(), Interrupt> {
        let owner = self.ensure_txn(i);
        self.lock_as(i, owner, res, mode, transient)
    }

    pub(crate) fn lock_as(
        &mut self,
        i: usize,
        owner: OwnerId,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<(), Interrupt> {
        self.lock_inner(i, owner, res, mode, transient, false)
            .map(|_| ())
    }

    /// Like [`Self::lock`] but without a trace event for an immediate grant: scans lock
    /// every row they pass and report only the rows they keep. Returns whether the lock is
    /// new to the transaction.
    pub(crate) fn lock_quiet(
        &mut self,
        i: usize,
        res: Resource,
        mode: LockMode,
        transient: bool,
    ) -> Result<bool, Interrupt> {
        let owner = self.ensure_txn(i);
        self.lock_inner(i, owner, res, mode, transient, true)
    }

    /// Traces session `i`'s grant of `res` in `mode` without a wait.
    #[inline]
    pub(crate) fn push_granted(&mut self, i: usize, res: &Resource, mode: LockMode) {
        let resource = self.w.resource_text(res);
        let name = self.w.sessions[i].name.clone();
        self.push(Event::LockGranted {
            session: name,
            resource,
            mode,
            waited_us: None,
            mode_name: None,
        });
    }

    /// Counts one more row or page lock of session `i`'s statement on `table`; at the
    /// threshold, tries to turn them into one table lock (semantics A4: 5 000 locks
    /// held by one statement on one table; when another owner's table lock is in the
    /// way, nothing changes and it tries again 1 250 locks later).
    fn count_for_escalation(&mut self, i: usize, owner: OwnerId, table: u32) {
        use crate::state::locks::{Escalation, ESCALATION_RETRY_STEP, ESCALATION_THRESHOLD};
        let s = &mut self.w.sessions[i];
        let k = match s.escalation.iter().position(|e| e.0 == table) {
            Some(k) => k,
            None => {
                s.escalation.push((table, 0, ESCALATION_THRESHOLD));
                s.escalation.len() - 1
            }
        };
        s.escalation[k].1 += 1;
        if s.escalation[k].1 < s.escalation[k].2 {
            return;
        }
        // The count is of locks taken; a scan lets go of the rows that do not qualify:
        // count the statement's locks still held before trying.
        let below = |r: &Resource| r.is_below_table(table);
        let locks = &self.w.locks;
        let kept = s
            .fresh_locks
            .iter()
            .filter(|r| below(r) && locks.held(owner, r).is_some())
            .count();
        s.escalation[k].1 = kept;
        if kept < s.escalation[k].2 {
            return;
        }
        match self.w.locks.try_escalate(owner, table) {
            Escalation::Escalated {
                mode,
                released,
                grants,
            } => {
                let s = &mut self.w.sessions[i];
                s.escalation[k].2 = usize::MAX;
                if let Some(t) = s.txn.as_mut() {
                    t.escalated = true;
                }
                let gone: Vec<Resource> =
                    s.fresh_locks.iter().filter(|r| below(r)).cloned().collect();
                for r in &gone {
                    s.fresh_locks.remove(r);
                }
                if self.recording() {
                    let resource = self.w.resource_text(&Resource::Object { table });
                    let session = self.w.sessions[i].name.clone();
                    self.push(Event::LockEscalated {
                        session,
                        resource,
                        mode,
                        released,
                    });
                }
                self.wake(grants);
            }
            Escalation::Blocked { .. } => {
                self.w.sessions[i].escalation[k].2 = kept + ESCALATION_RETRY_STEP;
            }
            Escalation::NotApplicable => self.w.sessions[i].escalation[k].2 = usize::MAX,
        }
    }

    pub(crate) fn lock_inner(
        &mut self,
        i: usize,
        owner: OwnerId,
        res: Resource,
        mode: LockMode,
        transient: bool,
        quiet: bool,
    ) -> Result<bool, Interrupt> {
        // Setup (and queries on the final state) run alone: nothing to lock against.
        if !self.w.tracing {
            return Ok(false);
        }
        self.w.owners.insert(owner, i);
        // A row or page of a table the owner holds whole (an escalated lock) is covered
        // by it: SQL Server takes no row lock under it. (Asked only once a statement of
        // the transaction has escalated: a lookup per row lock costs the claim race 1 %.)
        if self.w.sessions[i].txn.as_ref().is_some_and(|t| t.escalated) {
            if let Resource::Key { table, .. } | Resource::Page { table, .. } = &res {
                let whole = Resource::Object { table: *table };
                if self.w.locks.held(owner, &whole).is_some_and(|(held, _)| {
                    // A full lock, not an intent one: IX on the table covers no row.
                    matches!(held, LockMode::S | LockMode::U | LockMode::X)
                        && crate::state::locks::covers(held, mode)
                }) {
                    return Ok(false);
                }
            }
        }
        if self.rules.session_locks_never_conflict() {
            self.w.locks.join_session(owner, i as u32);
        }
        if self.rules.row_locks_skip_queue() {
            self.w.locks.let_rows_skip_queue();
        }
        match self.w.locks.request(owner, res.clone(), mode) {
            Request::Granted { already, .. } => {
                if already && self.w.sessions[i].waited_for.as_ref() == Some(&res) {
                    // The statement runs again after the wait that granted this lock:
                    // the lock is the same one, not a second reference to it.
                    self.w.sessions[i].waited_for = None;
                    let grants = self.w.locks.release(owner, &res);
                    self.wake(grants);
                    if transient {
                        self.w.sessions[i].statement_locks.push(res.clone());
                    }
                }
                if !already {
                    self.w.sessions[i].fresh_locks.push(res.clone());
                    if transient {
                        self.w.sessions[i].statement_locks.push(res.clone());
                    }
                    if self.recording()
                        && !mode.is_intent()
                        && !transient
                        && !quiet
                        && self.rules.shows_lock(&res, mode)
                    {
                        self.push_granted(i, &res, mode);
                    }
                    // Kept row and page locks count toward escalation; a READ
                    // COMMITTED read's, let go as it moves on, do not.
                    if !transient && self.rules.escalates_locks() {
                        if let Resource::Key { table, .. } | Resource::Page { table, .. } = res {
                            self.count_for_escalation(i, owner, table);
                        }
                    }
                }
                Ok(!already)
            }
            Request::AlreadyWaiting { .. } => Err(Interrupt::Block),
            Request::Waiting { blockers } => {
                let (holders, queued) = self.blocked_by(&res, mode, &blockers);
                let (resource, shown) = wait_words(self.rules, self.w, &res, mode);
                let name = self.w.sessions[i].name.clone();
                // A NOWAIT hint is the override 0 (sp_getapplock's own 0 never waits).
                let nowait = self.w.sessions[i].timeout_override == Some(0);
                self.push(Event::LockWaiting {
                    session: name,
                    resource,
                    mode: shown,
                    holders,
                    mode_name: None,
                    holder_mode_names: Vec::new(),
                    queued,
                    nowait,
                });
                if self.w.eager_searches > 0 {
                    self.w.eager_searches -= 1;
                    self.w.search_at = Some(self.w.now);
                }
                let timeout = self.w.sessions[i]
                    .timeout_override
                    .take()
                    .unwrap_or(self.w.sessions[i].options.lock_timeout_ms);
                self.w.sessions[i].waiting_as = Some(owner);
                // Saturating: sp_getapplock takes any int for @LockTimeout (found by fuzzing).
                let timeout_at = (timeout >= 0).then(|| {
                    self.w
                        .now
                        .saturating_add((timeout as u64).saturating_mul(1000))
                });
                // The statement's own timeout ends the wait too, if it comes first.
                let deadline = self.statement_deadline(i);
                let timeout_at = match (timeout_at, deadline) {
                    (Some(t), Some(d)) => Some(t.min(d)),
                    (t, d) => t.or(d),
                };
                // The statement will be re-run when the lock is granted: undo what it did.
                self.statement_failed(i);
                self.w.sessions[i].state = State::Blocked {
                    since: self.w.now,
                    timeout_at,
                };
                if nowait {
                    let relation = res
                        .table()
                        .and_then(|t| self.w.db.tables.get(t as usize))
                        .map(|t| t.name.to_string())
                        .unwrap_or_default();
                    let row = matches!(res, Resource::Key { .. } | Resource::RowHash { .. });
                    let error = self.rules.nowait_error(&relation, row);
                    self.end_wait(i, self.w.now, error, true, "NOWAIT");
                } else if timeout == 0 || deadline.is_some_and(|d| d <= self.w.now) {
                    self.lock_timeout(i, self.w.now);
                }
                Err(Interrupt::Block)
            }
        }
    }

    /// Sessions whose lock was granted by a release become ready now.
    pub(crate) fn wake(&mut self, grants: Vec<Grant>) {
        for g in grants {
            let Some(&s) = self.w.owners.get(&g.owner) else {
                continue;
            };
            if let State::Blocked { since, .. } = self.w.sessions[s].state {
                self.w.sessions[s].waiting_as = None;
                let waited = self.w.now - since;
                self.w.sessions[s].out.wait_us += waited;
                self.w.sessions[s].state = State::Ready;
                self.w.sessions[s].ready_at = self.w.now;
                self.w.sessions[s].fresh_locks.push(g.resource.clone());
                // (An application lock's calls are counted by `Session::effects`.)
                if !matches!(g.resource, Resource::Application { .. }) {
                    self.w.sessions[s].waited_for = Some(g.resource.clone());
                }
                self.w.sessions[s].resuming = true;
                let (resource, shown) = wait_words(self.rules, self.w, &g.resource, g.mode);
                let name = self.w.sessions[s].name.clone();
                self.push(Event::LockGranted {
                    session: name,
                    resource,
                    mode: shown,
                    waited_us: Some(waited),
                    mode_name: None,
                });
            }
        }
    }

    /// A wait that ran out: its lock timeout, or the statement's timeout when that came
    /// first.
    pub(crate) fn lock_timeout(&mut self, i: usize, since: u64) {
        let statement = self
            .statement_deadline(i)
            .is_some_and(|deadline| deadline <= self.w.now);
        let error = match statement {
            true => SqlError::statement_timeout(),
            false => SqlError::lock_timeout(),
        };
        let applock = self.w.sessions[i].applock_waiting;
        let setting = self.rules.wait_timeout_name(statement, applock);
        self.end_wait(i, since, error, false, setting);
    }

    /// When session `i`'s statement runs out of its `statement_timeout`, where one is set.
    pub(crate) fn statement_deadline(&self, i: usize) -> Option<u64> {
        let s = &self.w.sessions[i];
        let ms = s.options.statement_timeout_ms;
        (ms > 0).then(|| {
            s.statement_at
                .saturating_add((ms as u64).saturating_mul(1000))
        })
    }

    /// A wait given up (`nowait`: at once, by a NOWAIT request; else when `setting`'s
    /// time ran out): `error` fails the statement (sp_getapplock returns -1 instead).
    fn end_wait(
        &mut self,
        i: usize,
        since: u64,
        error: SqlError,
        nowait: bool,
        setting: &'static str,
    ) {
        let waited = self.w.now - since;
        self.w.sessions[i].out.wait_us += waited;
        let owner = self.w.sessions[i].waiting_as.take();
        let res = owner.and_then(|o| self.w.locks.waiting(o));
        if let Some(owner) = owner {
            let grants = self.w.locks.cancel_wait(owner);
            self.wake(grants);
        }
        let resource = res
            .map(|(r, m)| wait_words(self.rules, self.w, &r, m).0)
            .unwrap_or_default();
        let name = self.w.sessions[i].name.clone();
        self.push(Event::WaitTimedOut {
            session: name,
            resource,
            waited_us: waited,
            nowait,
            setting,
        });
        self.w.sessions[i].state = State::Ready;
        self.w.sessions[i].ready_at = self.w.now;
        if std::mem::take(&mut self.w.sessions[i].applock_waiting) {
            // sp_getapplock does not fail: it returns -1 when its timeout runs out.
            self.w.sessions[i].applock_result = Some(-1);
            self.w.sessions[i].resuming = true;
            return;
        }
        // The statement that waited fails with 1222; the transaction stays open.
        self.statement_ran(i);
        self.statement_failed(i);
        if !self.w.sessions[i].frames.is_empty() {
            self.frame_mut(i).pc += 1;
        }
        self.raise(i, error);
        if self.w.sessions[i].txn.as_ref().is_some_and(|t| !t.explicit) {
            self.commit(i);
        }
    }

    /// Whom a request for `mode` on `res` waits for, by name: the `blockers` whose held
    /// lock it conflicts with (with that mode); or, when it conflicts with no held lock,
    /// the earlier requests it may not pass (with the modes they wait for), as when it
    /// could share a lock with its holder but queues behind that holder's conversion.
    pub(crate) fn blocked_by(
        &self,
        res: &Resource,
        mode: LockMode,
        blockers: &[OwnerId],
    ) -> (Named, Option<Box<Queued>>) {
        use crate::state::locks::compatible;
        let held = self.w.locks.holders(res);
        let named = |(o, m): (OwnerId, LockMode)| (self.w.owner_name(o), m);
        // In the order the server lists them: holders by grant, the queue by arrival.
        let conflicting =
            |&&(o, m, _): &&(OwnerId, LockMode, u32)| blockers.contains(&o) && !compatible(mode, m);
        if held.iter().any(|h| conflicting(&h)) {
            // A held lock is reason enough; the queue decides only who goes next.
            let holders = held
                .iter()
                .filter(conflicting)
                .map(|&(o, m, _)| named((o, m)));
            return (holders.collect(), None);
        }
        let ahead = self.w.locks.queue(res);
        // A blocker that holds a lock and waits for nothing ahead: its lock, as before.
        let holders: Named = held
            .iter()
            .filter(|&&(o, _, _)| blockers.contains(&o) && !ahead.iter().any(|&(w, _)| w == o))
            .map(|&(o, m, _)| named((o, m)))
            .collect();
        if !holders.is_empty() {
            return (holders, None);
        }
        let queued: Named = ahead
            .into_iter()
            .filter(|(o, _)| blockers.contains(o))
            .map(named)
            .collect();
        let queued = (!queued.is_empty()).then(|| {
            Box::new(Queued {
                sessions: queued,
                mode_names: Vec::new(),
            })
        });
        (holders, queued)
    }

    pub(crate) fn deadlock_monitor(&mut self) {
        self.w.search_at = None;
        // Bounded: each round removes one victim's wait.
        for _ in 0..self.w.sessions.len() {
            let Some(cycle) = self.w.locks.find_deadlock_with(&self.session_waits()) else {
                return;
            };
            self.w.eager_searches = self.rules.eager_deadlock_searches();
            let members = self.cycle_sessions(&cycle);
            if members.is_empty() {
                return;
            }
            // Victim: lowest DEADLOCK_PRIORITY, then the cheapest to roll back.
            let victim = *members
                .iter()
                .min_by_key(|&&s| {
                    let sess = &self.w.sessions[s];
                    (
                        sess.options.deadlock_priority,
                        sess.txn.as_ref().map_or(0, |t| t.undo.len()),
                        std::cmp::Reverse(s),
                    )
                })
                .unwrap_or(&members[0]);
            self.deadlock_victim(victim, &members);
        }
    }

    /// Deadlock checks of the waiters in `due`, whose deadlock timeout ends now: a waiter
    /// that closes a cycle of waits is its victim (the dialects whose waiters check for
    /// themselves instead of a monitor that wakes every few seconds).
    pub(crate) fn deadlock_checks(&mut self, due: &[usize]) {
        for &s in due {
            if !matches!(self.w.sessions[s].state, State::Blocked { .. }) {
                continue;
            }
            let Some(owner) = self.w.sessions[s].waiting_as else {
                continue;
            };
            let Some(mut cycle) = self.w.locks.find_deadlock_with(&self.session_waits()) else {
                return;
            };
            // A cycle through a wait only for an earlier request is no deadlock: the
            // check lets a request that no held lock blocks go first (a detector that
            // rearranges the wait queue), and looks again.
            while cycle.contains(&owner) {
                let Some(grants) = self.w.locks.grant_past_queue(&cycle) else {
                    break;
                };
                self.wake(grants);
                match self.w.locks.find_deadlock_with(&self.session_waits()) {
                    Some(next) => cycle = next,
                    None => return,
                }
            }
            if !cycle.contains(&owner) {
                continue;
            }
            let members = self.cycle_sessions(&cycle);
            self.deadlock_victim(s, &members);
        }
    }

    /// The waits of a session's other owners for the owner it waits as (see
    /// `LockManager::find_deadlock_with`).
    fn session_waits(&self) -> Vec<(OwnerId, OwnerId)> {
        self.w
            .owners
            .iter()
            .filter_map(|(&o, &s)| {
                let w = self.w.sessions.get(s)?.waiting_as?;
                (w != o).then_some((o, w))
            })
            .collect()
    }

    /// The sessions of a cycle's owners, each once, in the cycle's order.
    fn cycle_sessions(&self, cycle: &[OwnerId]) -> Vec<usize> {
        let mut members: Vec<usize> = Vec::new();
        for s in cycle.iter().filter_map(|o| self.w.owners.get(o).copied()) {
            if !members.contains(&s) {
                members.push(s);
            }
        }
        members
    }

    /// Ends `victim`'s wait in the cycle of `members` with the deadlock error.
    fn deadlock_victim(&mut self, victim: usize, members: &[usize]) {
        let names: Vec<String> = members
            .iter()
            .map(|&s| self.w.sessions[s].name.to_string())
            .collect();
        let victim_name = self.w.sessions[victim].name.to_string();
        self.push(Event::Deadlock {
            victim: victim_name,
            cycle: names,
        });
        if let State::Blocked { since, .. } = self.w.sessions[victim].state {
            self.w.sessions[victim].out.wait_us += self.w.now - since;
        }
        if let Some(owner) = self.w.sessions[victim].waiting_as.take() {
            let grants = self.w.locks.cancel_wait(owner);
            self.wake(grants);
        }
        self.w.sessions[victim].state = State::Ready;
        self.w.sessions[victim].ready_at = self.w.now;
        if std::mem::take(&mut self.w.sessions[victim].applock_waiting) {
            // A deadlock on an application lock rolls nothing back: sp_getapplock
            // returns -3 and the caller decides.
            self.w.sessions[victim].applock_result = Some(-3);
            self.w.sessions[victim].resuming = true;
            return;
        }
        let spid = self.w.sessions[victim].spid;
        self.statement_ran(victim);
        self.statement_failed(victim);
        if !self.w.sessions[victim].frames.is_empty() {
            self.frame_mut(victim).pc += 1;
        }
        self.raise(victim, SqlError::deadlock_victim(spid));
    }
}
