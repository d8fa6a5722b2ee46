//! A search that answers by a deadline whatever the engine does.
//!
//! The engine is asked to stop at its hard time limit, but how promptly it notices depends on
//! how often it looks at the clock. So the search runs on its own thread while the caller
//! waits for it until a deadline; if the deadline passes first, the stop flag is raised and the
//! caller answers with the best move of the last finished iteration (or the move the
//! evaluation's hint likes best), leaving the engine to finish in the background. The next
//! search takes the engine back if it has finished by then, or starts a fresh one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bitsolve::search::engine::{Engine, EngineOptions, Evaluate, SearchInfo, SearchLimits};

/// How often the waiting side looks at the deadline and the stop flag.
const POLL: Duration = Duration::from_millis(2);
/// How long the engine may take to return after a stop request before it is left behind.
const STOP_GRACE: Duration = Duration::from_millis(30);

/// An engine that may still be busy with a search that ran past its deadline.
pub struct Searcher<G: Evaluate> {
    idle: Option<Engine<G>>,
    busy: Option<JoinHandle<Engine<G>>>,
    options: EngineOptions,
}

/// The answer of [`Searcher::search`].
pub struct Answer<M> {
    /// The move to play (`None` only without legal moves).
    pub best: Option<M>,
    /// Whether the deadline passed before the engine returned.
    pub overran: bool,
}

impl<G: Evaluate> Searcher<G> {
    /// A searcher with a new engine.
    pub fn new(options: &EngineOptions) -> Self {
        Searcher { idle: Some(Engine::new(options)), busy: None, options: options.clone() }
    }

    /// The engine: the idle one, the busy one if it has finished, or else a fresh one.
    fn take_engine(&mut self) -> Engine<G> {
        if let Some(handle) = self.busy.take() {
            if handle.is_finished() {
                if let Ok(engine) = handle.join() {
                    return engine;
                }
            } else {
                eprintln!("search still running after its deadline: starting a fresh engine");
            }
        }
        self.idle.take().unwrap_or_else(|| Engine::new(&self.options))
    }

    /// Applies new options (on the engine when idle, else on the next one).
    pub fn set_options(&mut self, options: &EngineOptions) {
        self.options = options.clone();
        let mut engine = self.take_engine();
        engine.set_options(options);
        self.idle = Some(engine);
    }

    /// Clears what the engine has learnt (new game).
    pub fn clear(&mut self) {
        let mut engine = self.take_engine();
        engine.clear();
        self.idle = Some(engine);
    }

    /// Runs `f` on the idle engine (waiting for a finished one, or starting a fresh one).
    pub fn with_engine<R>(&mut self, f: impl FnOnce(&mut Engine<G>) -> R) -> R {
        let mut engine = self.take_engine();
        let r = f(&mut engine);
        self.idle = Some(engine);
        r
    }

    /// Searches `root`; returns when the engine does or, at the latest, at `deadline` after
    /// the call (then the stop flag in `limits` is raised), or [`STOP_GRACE`] after that flag is
    /// raised from outside. `on_info` sees every iteration.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        mut limits: SearchLimits,
        deadline: Option<Duration>,
        mut on_info: impl FnMut(&SearchInfo<G::Move>) + Send + 'static,
    ) -> Answer<G::Move> {
        let start = Instant::now();
        let stop = limits.stop.get_or_insert_with(|| Arc::new(AtomicBool::new(false))).clone();
        let last: Arc<Mutex<Option<SearchInfo<G::Move>>>> = Arc::new(Mutex::new(None));
        let mut engine = self.take_engine();
        let (tx, rx) = channel();
        let (pos, history, seen) = (root.clone(), history.to_vec(), last.clone());
        let handle = std::thread::Builder::new().name("engine".into()).spawn(move || {
            let result = engine.search(&pos, &history, &limits, &mut |info| {
                *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
                    Some(info.clone());
                on_info(info);
            });
            let _ = tx.send(result);
            engine
        });
        let Ok(handle) = handle else {
            return Answer { best: fallback(root), overran: false };
        };
        // Wait for the engine, at most until the deadline or a little after a stop request.
        let mut stopped_at: Option<Instant> = None;
        let wait = loop {
            let now = start.elapsed();
            if deadline.is_some_and(|d| now >= d) {
                break Err(RecvTimeoutError::Timeout);
            }
            if stopped_at.is_none() && stop.load(Ordering::Relaxed) {
                stopped_at = Some(Instant::now());
            }
            if stopped_at.is_some_and(|t| t.elapsed() >= STOP_GRACE) {
                break Err(RecvTimeoutError::Timeout);
            }
            let step = deadline.map_or(POLL, |d| d.saturating_sub(now).min(POLL));
            match rx.recv_timeout(step) {
                Ok(result) => break Ok(result),
                Err(RecvTimeoutError::Timeout) => {}
                Err(e) => break Err(e),
            }
        };
        if let Ok(result) = wait {
            self.idle = handle.join().ok();
            let best = result.best_move.or_else(|| fallback(root));
            return Answer { best, overran: false };
        }
        stop.store(true, Ordering::Relaxed);
        self.busy = Some(handle);
        let info = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        let best = info.as_ref().and_then(|i| i.pv.first().copied()).or_else(|| fallback(root));
        Answer { best, overran: true }
    }
}

/// The legal move with the largest [`Evaluate::move_hint`], if any.
pub fn fallback<G: Evaluate>(pos: &G) -> Option<G::Move> {
    let mut moves = G::Moves::default();
    pos.generate_moves(&mut moves);
    moves.iter().copied().max_by_key(|&m| pos.move_hint(m))
}
