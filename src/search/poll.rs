//! Node polling: a search thread adds its nodes to the count shared by all threads every so
//! many nodes, and then looks at the stop flag and the limits (cheap enough to do there, too
//! costly at every node).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// When one thread last added its nodes to the shared count, and how often it does.
#[derive(Clone, Copy, Debug)]
pub struct NodePoll {
    /// Nodes between two polls.
    interval: u64,
    /// The thread's node count at the last flush.
    flushed: u64,
}

impl NodePoll {
    /// Polls every `interval` nodes, none counted yet.
    pub const fn new(interval: u64) -> Self {
        NodePoll { interval, flushed: 0 }
    }

    /// Whether the thread, at `nodes` nodes, is due to poll.
    #[inline]
    pub fn due(&self, nodes: u64) -> bool {
        nodes - self.flushed >= self.interval
    }

    /// The thread's nodes (of `nodes`) not yet in the shared count.
    #[inline]
    pub fn unflushed(&self, nodes: u64) -> u64 {
        nodes - self.flushed
    }

    /// Adds the thread's unflushed nodes (of `nodes`) to `shared`; returns the new shared total.
    pub fn flush(&mut self, nodes: u64, shared: &AtomicU64) -> u64 {
        let fresh = nodes - self.flushed;
        self.flushed = nodes;
        shared.fetch_add(fresh, Ordering::Relaxed) + fresh
    }

    /// [`NodePoll::flush`], then whether the thread must stop: `stop` is raised, or
    /// `exceeded(total)` says a limit is hit at the new shared total (which raises `stop` for
    /// every thread).
    pub fn poll(
        &mut self,
        nodes: u64,
        shared: &AtomicU64,
        stop: &AtomicBool,
        exceeded: impl FnOnce(u64) -> bool,
    ) -> bool {
        let total = self.flush(nodes, shared);
        if stop.load(Ordering::Relaxed) {
            true
        } else if exceeded(total) {
            stop.store(true, Ordering::Relaxed);
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushes_and_raises_the_stop_flag() {
        let (shared, stop) = (AtomicU64::new(10), AtomicBool::new(false));
        let mut poll = NodePoll::new(4);
        assert!(!poll.due(3) && poll.due(4));
        assert_eq!(poll.unflushed(3), 3);
        assert!(!poll.poll(4, &shared, &stop, |total| total >= 20));
        assert_eq!((shared.load(Ordering::Relaxed), poll.unflushed(6)), (14, 2));
        assert!(poll.poll(10, &shared, &stop, |total| total >= 20));
        assert!(stop.load(Ordering::Relaxed));
        assert!(poll.poll(11, &shared, &stop, |_| false));
    }
}
