//! An append-only list whose clone shares what was written before it: a session's
//! results and errors. A snapshot clones the world every few hundred steps, and a
//! script that loops returns hundreds of thousands of results: copied into each of the
//! player's snapshots, they ran a browser tab out of memory.

use std::rc::Rc;

/// Items are gathered in a tail, and each full tail is sealed into a shared chunk: a
/// clone copies the chunks' pointers and at most `CHUNK - 1` items. An empty log (most
/// sessions' errors, a worker's results) is `None`, so its clone is a test of a word
/// (the claim race's mid-run clone took 15 % longer with two empty vectors per log).
#[derive(Clone, Debug)]
pub(crate) struct Log<T>(Option<Box<Chunks<T>>>);

#[derive(Clone, Debug)]
struct Chunks<T> {
    sealed: Vec<Rc<[T]>>,
    tail: Vec<T>,
}

const CHUNK: usize = 64;

impl<T> Default for Log<T> {
    fn default() -> Self {
        Log(None)
    }
}

impl<T> Log<T> {
    pub fn push(&mut self, item: T) {
        let chunks = self.0.get_or_insert_with(|| {
            Box::new(Chunks {
                sealed: Vec::new(),
                tail: Vec::new(),
            })
        });
        chunks.tail.push(item);
        if chunks.tail.len() == CHUNK {
            let full = std::mem::replace(&mut chunks.tail, Vec::with_capacity(CHUNK));
            chunks.sealed.push(Rc::from(full));
        }
    }

    pub fn len(&self) -> usize {
        self.0
            .as_ref()
            .map_or(0, |c| c.sealed.len() * CHUNK + c.tail.len())
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        (self.0.iter()).flat_map(|c| c.sealed.iter().flat_map(|s| s.iter()).chain(&c.tail))
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
        let first = |l: &Log<i32>| Rc::clone(&l.0.as_ref().unwrap().sealed[0]);
        assert!(Rc::ptr_eq(&first(&log), &first(&snapshot)));
        assert_eq!(Log::<i32>::default().len(), 0);
        assert_eq!(log.first(), Some(&0));
    }
}
