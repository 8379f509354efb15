//! An append-only list whose clone shares what was written before it: a session's
//! results and errors. A snapshot clones the world every few hundred steps, and a
//! script that loops returns hundreds of thousands of results: copied into each of the
//! player's snapshots, they ran a browser tab out of memory.

use std::rc::Rc;

/// Items are gathered in a tail, and each full tail is sealed into a shared chunk: a
/// clone copies the chunks' pointers and at most `CHUNK - 1` items.
#[derive(Clone, Debug)]
pub(crate) struct Log<T> {
    sealed: Vec<Rc<[T]>>,
    tail: Vec<T>,
}

const CHUNK: usize = 64;

impl<T> Default for Log<T> {
    fn default() -> Self {
        Log {
            sealed: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T> Log<T> {
    pub fn push(&mut self, item: T) {
        self.tail.push(item);
        if self.tail.len() == CHUNK {
            let full = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            self.sealed.push(Rc::from(full));
        }
    }

    pub fn len(&self) -> usize {
        self.sealed.len() * CHUNK + self.tail.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.sealed.iter().flat_map(|c| c.iter()).chain(&self.tail)
    }

    pub fn first(&self) -> Option<&T> {
        self.iter().next()
    }
}

impl<T: Clone> Log<T> {
    pub fn to_vec(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter().cloned());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clone_keeps_what_was_written_before_it() {
        let mut log = Log::default();
        for n in 0..150 {
            log.push(n);
        }
        let snapshot = log.clone();
        for n in 150..200 {
            log.push(n);
        }
        assert_eq!(snapshot.to_vec(), (0..150).collect::<Vec<_>>());
        assert_eq!(log.to_vec(), (0..200).collect::<Vec<_>>());
        assert_eq!((log.len(), snapshot.len()), (200, 150));
        // The sealed chunks are shared, not copied.
        assert!(Rc::ptr_eq(&log.sealed[0], &snapshot.sealed[0]));
        assert_eq!(log.first(), Some(&0));
    }
}
