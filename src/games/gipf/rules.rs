//! The rules after a push: the push itself (with the row-full rule), row detection by the
//! `(S, K)` window tables or by scanning lines, and row removal with its choices.

use super::{Gipf, Run, State};
use crate::bitboard::Bitboard128;
use crate::game::{ByPlayer, Player};

impl Gipf {
    /// Every maximal run of `colour` of length `>= K` in `state`, lines in geometry order.
    pub fn runs_of(&self, state: &State, colour: Player) -> Vec<Run> {
        self.runs_on(state, colour, u64::MAX)
    }

    /// [`Gipf::runs_of`] on the lines whose bit is set in `lines` (bit `i`: line `i` of the
    /// geometry; lines past the 64th are always looked at).
    fn runs_on(&self, state: &State, colour: Player, lines: u64) -> Vec<Run> {
        let mine = state.board[colour].0;
        let occupied = state.occupied().0;
        let k = self.k as usize;
        let mut out = Vec::new();
        for (li, line) in self.geo.lines.iter().enumerate() {
            if li < 64 && lines >> li & 1 == 0 {
                continue;
            }
            let cells = &line.cells;
            // A line with fewer than K pieces of the colour has no run (the usual case).
            if cells.len() < k || ((mine & line.mask).count_ones() as usize) < k {
                continue;
            }
            let mut i = 0;
            while i < cells.len() {
                if mine >> cells[i] & 1 == 0 {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < cells.len() && mine >> cells[i] & 1 == 1 {
                    i += 1;
                }
                if i - start >= k {
                    let mut lo = start;
                    while lo > 0 && occupied >> cells[lo - 1] & 1 == 1 {
                        lo -= 1;
                    }
                    let mut hi = i;
                    while hi < cells.len() && occupied >> cells[hi] & 1 == 1 {
                        hi += 1;
                    }
                    let segment =
                        cells[lo..hi].iter().map(|&c| u32::from(c)).collect::<Bitboard128>();
                    out.push(Run {
                        colour,
                        line: li as u16,
                        first: cells[start],
                        last: cells[i - 1],
                        segment,
                    });
                }
            }
        }
        out
    }

    /// Removes the segment of `run`: own pieces back to the reserve, others captured.
    pub fn remove_run(state: &mut State, run: &Run) {
        let c = run.colour;
        state.reserve[c] += (state.board[c] & run.segment).count();
        state.board.first -= run.segment;
        state.board.second -= run.segment;
    }

    /// Whether some two runs' segments share a cell.
    fn any_intersect(runs: &[Run]) -> bool {
        runs.iter()
            .enumerate()
            .any(|(i, a)| runs[i + 1..].iter().any(|b| a.segment.intersects(b.segment)))
    }

    /// The state after push `push` by the side to move, before removing rows; `None` if the line
    /// is full or the side to move has no piece in reserve.
    pub fn pushed(&self, push: usize) -> Option<State> {
        let mover = self.to_move;
        if self.state.reserve[mover] == 0 {
            return None;
        }
        let p = &self.geo.pushes[push];
        let occupied = self.state.occupied();
        let j = p.cells.iter().position(|&c| !occupied.contains(u32::from(c)))?;
        let mut st = self.state;
        for i in (1..=j).rev() {
            let (from, to) = (u32::from(p.cells[i - 1]), u32::from(p.cells[i]));
            for c in Player::ALL {
                let b = st.board[c];
                st.board[c] = if b.contains(from) { b.with(to) } else { b.without(to) };
            }
        }
        let entry = u32::from(p.cells[0]);
        st.board[!mover] = st.board[!mover].without(entry);
        st.board[mover] = st.board[mover].with(entry);
        st.reserve[mover] -= 1;
        Some(st)
    }

    /// The state after push `push` by the side to move, before removing rows, and the index
    /// along the push of the first empty cell (the last cell whose content changed); `None` if
    /// the line is full.
    #[inline]
    pub(super) fn push_raw(&self, push: usize) -> Option<(State, usize)> {
        let p = &self.geo.pushes[push];
        let (b0, b1) = (self.state.board.first.0, self.state.board.second.0);
        let occupied = b0 | b1;
        if p.mask & !occupied == 0 {
            return None;
        }
        let cells = &p.cells;
        let mut j = 0;
        while occupied >> cells[j] & 1 == 1 {
            j += 1;
        }
        // Shift the pieces on cells[0..j] one step along the push onto cells[1..=j]; the
        // entry cell gets the mover's piece.
        let (mut s0, mut s1) = (0u128, 0u128);
        let mut span = 1u128 << cells[0];
        for w in cells[..=j].windows(2) {
            let (from, to) = (w[0], w[1]);
            s0 |= (b0 >> from & 1) << to;
            s1 |= (b1 >> from & 1) << to;
            span |= 1 << to;
        }
        let entry = 1u128 << cells[0];
        let mut reserve = self.state.reserve;
        reserve[self.to_move] -= 1;
        let (white, black) = if self.to_move == Player::First {
            ((b0 & !span) | s0 | entry, (b1 & !span) | s1)
        } else {
            ((b0 & !span) | s0, (b1 & !span) | s1 | entry)
        };
        let board = ByPlayer { first: Bitboard128(white), second: Bitboard128(black) };
        Some((State { board, reserve }, j))
    }

    /// Whether `line` holds `K` consecutive pieces of the set `mine`.
    #[inline]
    fn line_has_run(&self, mine: u128, line: u16) -> bool {
        let line = &self.geo.lines[line as usize];
        if ((mine & line.mask).count_ones()) < self.k {
            return false;
        }
        let mut run = 0;
        for &c in &line.cells {
            if mine >> c & 1 == 1 {
                run += 1;
                if run >= self.k {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        false
    }

    /// Whether the raw result `st` of a push has a row to remove. A legal position has none,
    /// and removals create none, so every new run of a colour passes through a cell that colour
    /// gained: only the windows of `K` cells through each gained cell are looked at
    /// ([`Windows::full_through`](crate::geometry::hex::Windows::full_through), at most `3K` mask tests per cell).
    /// `st` must come from [`Gipf::pushed`] on this position.
    #[inline]
    pub fn push_makes_run(&self, st: &State) -> bool {
        for colour in Player::ALL {
            let mine = st.board[colour].0;
            if mine.count_ones() < self.k {
                continue;
            }
            let mut gained = mine & !self.state.board[colour].0;
            while gained != 0 {
                let c = gained.trailing_zeros() as usize;
                gained &= gained - 1;
                if self.windows.full_through(c, mine) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Gipf::push_makes_run`] by scanning the lines through the gained cells (the version
    /// before the window tables; kept to check and measure them).
    #[doc(hidden)]
    pub fn push_makes_run_by_lines(&self, st: &State) -> bool {
        for colour in Player::ALL {
            let mine = st.board[colour].0;
            if mine.count_ones() < self.k {
                continue;
            }
            let mut gained = mine & !self.state.board[colour].0;
            while gained != 0 {
                let c = gained.trailing_zeros() as usize;
                gained &= gained - 1;
                let masks = &self.geo.line_masks_of_cell[c];
                for (f, &line) in self.geo.lines_of_cell[c].iter().enumerate() {
                    if (mine & masks[f]).count_ones() >= self.k && self.line_has_run(mine, line) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Every result of resolving the rows of `st` (mover's colour first), in branch order,
    /// duplicates included.
    pub fn resolutions(&self, st: State, out: &mut Vec<State>) {
        self.resolve_from(st, 0, out, u64::MAX);
    }

    /// [`Gipf::resolutions`] of the raw result `st` of a push on this position
    /// ([`Gipf::push_raw`]), looking for rows only on the lines through the cells the push
    /// gave a new piece: a legal position has no row and removals make none, so every row
    /// of `st` and of what its removals leave lies on such a line.
    pub(super) fn resolutions_after_push(&self, st: State, out: &mut Vec<State>) {
        let gained = (st.board.first.0 & !self.state.board.first.0)
            | (st.board.second.0 & !self.state.board.second.0);
        self.resolve_from(st, 0, out, self.lines_through(gained));
    }

    /// The lines (bit `i`: line `i` of the geometry) through any cell of `cells`; every line
    /// when the geometry has more than 64.
    fn lines_through(&self, mut cells: u128) -> u64 {
        if self.geo.lines.len() > 64 {
            return u64::MAX;
        }
        let mut lines = 0u64;
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            for &l in &self.geo.lines_of_cell[c] {
                lines |= 1 << l;
            }
        }
        lines
    }

    fn resolve_from(&self, mut st: State, step: usize, out: &mut Vec<State>, lines: u64) {
        let mover = self.to_move;
        for step in step..2 {
            let colour = if step == 0 { mover } else { !mover };
            let runs = self.runs_on(&st, colour, lines);
            if runs.is_empty() {
                continue;
            }
            if !Self::any_intersect(&runs) {
                for r in &runs {
                    Self::remove_run(&mut st, r);
                }
                continue;
            }
            for (i, r) in runs.iter().enumerate() {
                let crosses =
                    runs.iter().enumerate().any(|(j, o)| j != i && o.segment.intersects(r.segment));
                if crosses {
                    let mut next = st;
                    Self::remove_run(&mut next, r);
                    self.resolve_from(next, step, out, lines);
                }
            }
            return;
        }
        out.push(st);
    }

    /// The distinct results of push `push` (empty if the line is full), in branch order.
    pub fn push_results(&self, push: usize) -> Vec<State> {
        let Some(st) = self.pushed(push) else { return Vec::new() };
        let mut all = Vec::new();
        self.resolutions(st, &mut all);
        let mut out: Vec<State> = Vec::with_capacity(all.len());
        for s in all {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }
}
