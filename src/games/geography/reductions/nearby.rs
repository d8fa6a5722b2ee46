//! Parity-set tests of positions a few moves away from an eliminated one, from the kernel of a low-rank change.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Parity-set tests of the positions a few moves away from one whose component rows are all
/// eliminated: a position reached by moves along a path differs from it by the path's edges,
/// a change of low rank, so its kernel follows from the elimination and the reductions of a
/// few unit vectors, without an elimination of its own.
///
/// With `A` the eliminated adjacency and `D` the removed edges (`A' = A + D` over GF(2)),
/// `A' v = 0` is `A v = D v`, and `D v` lies in the span of the unit vectors of the path's
/// vertices `S`, with coefficients fixed by `v` on `S`. For each assignment `a` of `v` on `S`
/// (the token's coordinate 1), `b = D v` is known; the elimination writes each `e_u` as
/// `A p_u + r_u` with a residue `r_u` outside the row space, so `A v = b` is solvable exactly when
/// the residues of `b` cancel, with the solutions `sum p_u` plus the kernel of `A`; the kernel
/// vectors fix the coordinates on `S` back to `a`. The solutions are the kernel vectors of `A'`
/// holding the token, enumerated for an independent one (a parity set), as the test from
/// scratch enumerates them.
pub(in crate::games::geography) struct Nearby<'p> {
    /// The position whose component is eliminated.
    pos: &'p Geography,
    /// Whether `elimination` holds the component's rows yet (made on first use).
    ready: bool,
    /// Taken from the thread's spare eliminations (of the game's caches) and given back when
    /// dropped (a fresh one would be 6 KiB to zero for every position settled); `None` only
    /// while being dropped.
    elimination: Option<Box<Elimination>>,
    /// Index in `units` of each vertex's reduction, `u8::MAX` when not yet computed.
    slot: [u8; MAX_VERTICES],
    /// `(p_u, r_u)` with `A p_u = e_u + r_u`, for the first `UNITS` vertices asked for (the
    /// others are reduced again when asked).
    units: ArrayVec<(u128, u128), UNITS>,
}

impl Drop for Nearby<'_> {
    fn drop(&mut self) {
        if let Some(elimination) = self.elimination.take() {
            caches::give_back_elimination(elimination);
        }
    }
}

/// Assignments on a path with a solution that [`PathShape::solutions`] keeps.
pub(super) const SOLUTIONS: usize = 32;

/// Unit-vector reductions a [`Nearby`] keeps.
pub(super) const UNITS: usize = 48;

/// Kernel vectors vanishing on a path that [`Nearby::loss_after`] keeps: more are more than it
/// enumerates anyway.
pub(super) const ZERO_ON_PATH: usize = KERNEL_ENUMERATION_DIM + 1;

impl<'p> Nearby<'p> {
    /// The engine of `pos`'s component; the elimination is made on first use.
    pub(in crate::games::geography) fn new(pos: &'p Geography) -> Self {
        let mut elimination = caches::spare_elimination();
        elimination.clear();
        Nearby {
            pos,
            ready: false,
            elimination: Some(elimination),
            slot: [u8::MAX; MAX_VERTICES],
            units: ArrayVec::new(),
        }
    }

    /// The elimination of the component's rows.
    ///
    /// After a move from `p` that kept the component whole ([`Geography::came_from`]), the
    /// rows outside `p`'s closed neighbourhood in the position before the move are the same in
    /// every position after a move of `p`'s: their elimination (the base) is kept per thread
    /// (the base elimination of the game's caches) and shared by those positions, which add
    /// the rows of `p`'s neighbourhood to a copy. The row space, and so every answer, is the
    /// same as with the rows added in plain order.
    pub(super) fn elimination(&mut self) -> &Elimination {
        let elimination = self.elimination.get_or_insert_with(|| Box::new(Elimination::new()));
        if !self.ready {
            let pos = self.pos;
            let (from, token) = (pos.came_from, pos.token);
            let mut rest = pos.component.0;
            if from != u8::MAX {
                // The component hash of the position before the move.
                let key = pos.component_hash()
                    ^ edge_key(from, token)
                    ^ token_key(from)
                    ^ token_key(token);
                let around = pos.rows[from as usize] | 1u128 << from | 1u128 << token;
                caches::with_base_elimination(|base_key, base| {
                    if *base_key != key || key == 0 {
                        base.clear();
                        for v in Bitboard128(rest & !around) {
                            base.add(v as usize, pos.rows[v as usize]);
                        }
                        *base_key = key;
                    }
                    elimination.copy_from(base);
                });
                rest &= around;
            }
            for v in Bitboard128(rest) {
                elimination.add(v as usize, pos.rows[v as usize]);
            }
            self.ready = true;
        }
        elimination
    }

    /// `(p_u, r_u)`: the rows summing to `e_u` but for the residue `r_u` (no pivot bit).
    fn unit(&mut self, u: usize) -> (u128, u128) {
        if self.slot[u] != u8::MAX {
            return self.units[self.slot[u] as usize];
        }
        let (row, combo) = self.elimination().reduce(1u128 << u, 0);
        if self.units.try_push((combo, row)).is_ok() {
            self.slot[u] = (self.units.len() - 1) as u8;
        }
        (combo, row)
    }

    /// Whether, after the moves along `path` (its first vertex the token, each step along a
    /// remaining edge, every edge distinct), the player on its last vertex is in a parity set;
    /// `None` when more than `2^KERNEL_ENUMERATION_DIM` kernel vectors hold that vertex (as
    /// [`Elimination::parity_set`]).
    pub(in crate::games::geography) fn loss_after(&mut self, path: &[u8]) -> Option<bool> {
        let shape = PathShape::new(path);
        let n = shape.len;
        let mut units = [(0u128, 0u128); 8];
        for (unit, &v) in units.iter_mut().zip(&shape.verts[..n]) {
            *unit = self.unit(v as usize);
        }
        // The kernel of the unchanged rows by its coordinates on the path.
        let mut kernel = KernelOnPath::new();
        for &k in &self.elimination().kernel {
            kernel.add(shape.on_path(k), k);
        }
        let mut firsts = ArrayVec::new();
        shape.solutions(&units[..n], &kernel.reach, &mut firsts)?;
        self.finish(&shape, &firsts, &kernel)
    }

    /// The end of [`Nearby::loss_after`] once the kernel vectors of the changed rows that match
    /// each solvable assignment on the path (`firsts`) and the kernel of the unchanged rows on
    /// the path (`kernel`) are known: whether one of them is independent after the moves.
    fn finish(&self, shape: &PathShape, firsts: &[u128], kernel: &KernelOnPath) -> Option<bool> {
        let (zero, zeros) = (&kernel.zero, kernel.zeros);
        if firsts.is_empty() {
            return Some(false);
        }
        if zeros > KERNEL_ENUMERATION_DIM || firsts.len() << zeros > 1 << KERNEL_ENUMERATION_DIM {
            return None;
        }
        let after = shape.rows_after(&self.pos.rows);
        let independent = |x: u128| shape.independent(&after, &self.pos.rows, x);
        Some(firsts.iter().any(|&x| any_in_coset(x, &zero[..zeros], independent)))
    }

    /// Whether some last move `z` of `lasts` (moves from the last vertex of `prefix`, a path of
    /// distinct vertices starting at the token) puts the player on `z` in a parity set, as
    /// [`Nearby::loss_after`] of `prefix` then `z` would say, and, when none does, whether some
    /// test gave up. The work the paths share (the prefix's shape, unit reductions,
    /// the kernel on it and the images of its edges) is done once; a `z` on the prefix is
    /// tested on its own.
    pub(in crate::games::geography) fn any_loss_after(
        &mut self,
        prefix: &[u8],
        lasts: u128,
    ) -> (bool, bool) {
        let head = PathShape::new(prefix);
        let n0 = head.len;
        debug_assert!(n0 == prefix.len() && n0 < 8);
        let mut gave_up = false;
        let mut path = [0u8; 8];
        path[..n0].copy_from_slice(prefix);
        let mut units = [(0u128, 0u128); 8];
        for (unit, &v) in units.iter_mut().zip(&head.verts[..n0]) {
            *unit = self.unit(v as usize);
        }
        // The kernel by its coordinates on the prefix.
        let mut prefix_kernel = PrefixKernel { reach: [(0, 0); 8], zero: ArrayVec::new() };
        for &k in &self.elimination().kernel {
            prefix_kernel.add(head.on_path(k), k);
        }
        // The images of the prefix's edges (solution part, residue, coordinates on the prefix).
        let mut images = [(0u128, 0u128, 0u32); 8];
        for &(i, j) in &head.edges[..head.steps] {
            let (i, j) = (i as usize, j as usize);
            images[i].0 ^= units[j].0;
            images[i].1 ^= units[j].1;
            images[j].0 ^= units[i].0;
            images[j].1 ^= units[i].1;
        }
        for image in images.iter_mut().take(n0) {
            image.2 = head.on_path(image.0);
        }
        let last = head.token;
        let last_on = head.on_path(units[last].0);
        let mut kernel = KernelOnPath::new();
        // Split on the coordinate of the prefix's last vertex when no test below can give up
        // (at most 2^n0 solvable assignments, each with at most 2^k kernel vectors vanishing on
        // the path) and the half it takes off costs little to enumerate.
        let k = prefix_kernel.zero.len();
        let split =
            n0 <= 5 && k <= SPLIT_ZEROS && (1usize << n0) << k <= 1 << KERNEL_ENUMERATION_DIM;
        let mut held: ArrayVec<(u128, u128, u32), 16> = ArrayVec::new();
        if split {
            let (mut sum, mut residue) =
                (units[last].0 ^ images[last].0, units[last].1 ^ images[last].1);
            let mut bits = 1u32 << last | 1 << n0;
            for step in 0u32..1 << (n0 - 1) {
                if step > 0 {
                    let b = step.trailing_zeros() as usize;
                    let i = b + usize::from(b >= last);
                    sum ^= images[i].0;
                    residue ^= images[i].1;
                    bits ^= 1 << i;
                }
                held.push((sum, residue, bits));
            }
        }
        let beyond = Beyond {
            head: &head,
            units: &units,
            prefix_kernel: &prefix_kernel,
            images: &images,
            split,
            held: &held,
        };
        if split && self.free_answers(&beyond, last_on) & lasts & !head.mask != 0 {
            #[cfg(test)]
            caches::SPLIT_FOUND.with(|n| n.set((n.get().0 + 1, n.get().1)));
            return (true, false);
        }
        for z in Bitboard128(lasts) {
            let z = z as u8;
            let answer = if head.mask >> z & 1 == 1 {
                path[n0] = z;
                self.loss_after(&path[..=n0])
            } else {
                self.loss_after_beyond(&beyond, last_on, z, &mut kernel)
            };
            match answer {
                Some(true) => return (true, gave_up),
                Some(false) => {}
                None => gave_up = true,
            }
        }
        (false, gave_up)
    }

    /// [`Nearby::loss_after`] of the prefix then a move to `z`, off the prefix, from what
    /// [`Nearby::any_loss_after`] worked out for the prefix (`kernel` is scratch space).
    ///
    /// When the prefix is split, only the solutions whose coordinate on the prefix's last vertex
    /// is 1 are looked at (those with 0 are [`Nearby::free_answers`]'s): an assignment is
    /// solvable when its residue is `z`'s, which most are not, so most `z` end before the
    /// kernel on the path is worked out.
    fn loss_after_beyond(
        &mut self,
        prefix: &Beyond,
        last_on: u32,
        z: u8,
        kernel: &mut KernelOnPath,
    ) -> Option<bool> {
        let head = prefix.head;
        let (n0, last) = (head.len, head.token);
        let uz = self.unit(z as usize);
        let z_bit = |x: u128| ((x >> z & 1) as u32) << n0;
        let mut firsts = ArrayVec::new();
        if prefix.split {
            if prefix.held.iter().all(|h| h.1 != uz.1) {
                return Some(false);
            }
            // The kernel on the path is the prefix's, with `z`'s coordinate fixed last by the
            // first vector vanishing on the prefix that holds `z` (as `with_vertex` builds it,
            // which is needed only when a solution is found).
            let pk = prefix.prefix_kernel;
            let on_z = || pk.zero.iter().copied().find(|&vec| vec >> z & 1 == 1);
            for &(sum, residue, bits) in prefix.held {
                if residue != uz.1 {
                    continue;
                }
                let x = sum ^ uz.0;
                let Some(mut x) =
                    fix_on_path(&pk.reach, x, head.on_path(x) ^ bits & ((1 << n0) - 1))
                else {
                    continue;
                };
                if x >> z & 1 == 0 {
                    match on_z() {
                        Some(vec) => x ^= vec,
                        None => continue,
                    }
                }
                firsts.push(x);
            }
            if firsts.is_empty() {
                return Some(false);
            }
            pk.with_vertex(n0, z, kernel);
            let answer = self.finish_beyond(head, z, &firsts, kernel);
            #[cfg(test)]
            if answer == Some(true) {
                caches::SPLIT_FOUND.with(|n| n.set((n.get().0, n.get().1 + 1)));
            }
            return answer;
        }
        prefix.prefix_kernel.with_vertex(n0, z, kernel);
        // The images with the edge {last, z}: setting z puts e_last into D v, setting last
        // puts e_z; each with its mismatch against the assignment.
        let mut images: ArrayVec<(u128, u128, u32), 8> =
            prefix.images[..n0].iter().copied().collect();
        images[last].0 ^= uz.0;
        images[last].1 ^= uz.1;
        images[last].2 ^= head.on_path(uz.0);
        let (sum, residue) = prefix.units[last];
        images.push((sum, residue, last_on));
        for (i, image) in images.iter_mut().enumerate() {
            image.2 = image.2 ^ z_bit(image.0) ^ 1 << i;
        }
        gray_solutions(&images, n0, &kernel.reach, &mut firsts)?;
        self.finish_beyond(head, z, &firsts, kernel)
    }

    /// [`Nearby::finish`] of the prefix `head` then a move to `z`.
    fn finish_beyond(
        &self,
        head: &PathShape,
        z: u8,
        firsts: &[u128],
        kernel: &KernelOnPath,
    ) -> Option<bool> {
        if firsts.is_empty() {
            return Some(false);
        }
        let (n0, last) = (head.len, head.token);
        let mut shape = PathShape { ..*head };
        shape.verts[n0] = z;
        shape.mask |= 1u128 << z;
        shape.len = n0 + 1;
        shape.edges[shape.steps] = (last as u8, n0 as u8);
        shape.steps += 1;
        shape.token = n0;
        self.finish(&shape, firsts, kernel)
    }
}

impl Nearby<'_> {
    /// The vertices `z` off the prefix for which a move `last -> z` after the prefix puts the
    /// player on `z` in a parity set by a set without `last` (the prefix's last vertex).
    ///
    /// Such a set `v` (with `v_z = 1`, `v_last = 0`) solves `A v = D_P v + e_last` (`D_P` the
    /// prefix's edges), whatever `z` is: the edge `{last, z}` adds `v_z e_last + v_last e_z`
    /// to `D v`. And it is independent after the move exactly when it is after the prefix
    /// (the edge `{last, z}` has no end in it but `z`). So every independent solution of that
    /// system, over the assignments on the prefix with `last`'s coordinate 0, serves every `z`
    /// it holds: one enumeration for all of them ([`Nearby::any_loss_after`] tests only the
    /// sets holding `last` per `z`).
    fn free_answers(&self, prefix: &Beyond, last_on: u32) -> u128 {
        let head = prefix.head;
        let (n0, last) = (head.len, head.token);
        let after = head.rows_after(&self.pos.rows);
        let independent = |x: u128| head.independent(&after, &self.pos.rows, x);
        let zero = &prefix.prefix_kernel.zero;
        let (mut sum, mut residue, mut mismatch) =
            (prefix.units[last].0, prefix.units[last].1, last_on);
        let mut found = 0u128;
        for step in 0u32..1 << (n0 - 1) {
            if step > 0 {
                let b = step.trailing_zeros() as usize;
                let i = b + usize::from(b >= last);
                let image = prefix.images[i];
                sum ^= image.0;
                residue ^= image.1;
                mismatch ^= image.2 ^ 1 << i;
            }
            if residue != 0 {
                continue;
            }
            let Some(mut x) = fix_on_path(&prefix.prefix_kernel.reach, sum, mismatch) else {
                continue;
            };
            if independent(x) {
                found |= x;
            }
            for i in 1u32..1 << zero.len() {
                x ^= zero[i.trailing_zeros() as usize];
                if independent(x) {
                    found |= x;
                }
            }
        }
        found
    }
}

/// Largest number of kernel vectors vanishing on a prefix for which [`Nearby::any_loss_after`]
/// enumerates [`Nearby::free_answers`] (`2^k` sets per assignment).
pub(super) const SPLIT_ZEROS: usize = 4;

/// What the tests of the last moves after one prefix share ([`Nearby::any_loss_after`]): its
/// shape, the unit reductions of its vertices, the kernel on it and the images of its edges.
pub(super) struct Beyond<'a> {
    head: &'a PathShape,
    units: &'a [(u128, u128); 8],
    prefix_kernel: &'a PrefixKernel,
    images: &'a [(u128, u128, u32); 8],
    /// Whether the tests split on the coordinate of the prefix's last vertex
    /// ([`Nearby::free_answers`]).
    split: bool,
    /// When split: for each assignment on the prefix with the last vertex's coordinate 1 (and
    /// the next vertex's), the solution part and residue of `D v` but for the next vertex's
    /// unit, and the assignment's bits.
    held: &'a [(u128, u128, u32)],
}

/// The kernel of the unchanged rows by its coordinates on a path: for each lowest bit, a kernel
/// vector with that pattern bit (a basis reaching every pattern in the span), and a basis of the
/// kernel vectors vanishing on the path (`zeros` of them; more than [`ZERO_ON_PATH`] are too
/// many to enumerate, only the first are kept).
pub(super) struct KernelOnPath {
    reach: [(u32, u128); 8],
    zero: [u128; ZERO_ON_PATH],
    zeros: usize,
}

impl KernelOnPath {
    fn new() -> Self {
        KernelOnPath { reach: [(0, 0); 8], zero: [0; ZERO_ON_PATH], zeros: 0 }
    }

    /// Adds the kernel vector `vec` whose coordinates on the path are `key`.
    fn add(&mut self, key: u32, vec: u128) {
        if let Some(vec) = reach_or_zero(&mut self.reach, key, vec) {
            self.push_zero(vec);
        }
    }

    /// Counts a kernel vector vanishing on the path, kept while there is room.
    fn push_zero(&mut self, vec: u128) {
        if self.zeros < ZERO_ON_PATH {
            self.zero[self.zeros] = vec;
        }
        self.zeros += 1;
    }
}

/// Reduces the kernel vector `vec` with coordinates `key` on a path by `reach` (a vector per
/// lowest bit of its coordinates): it joins `reach` when it brings a new lowest bit, else
/// comes back, reduced, vanishing on the path.
pub(super) fn reach_or_zero(
    reach: &mut [(u32, u128); 8],
    mut key: u32,
    mut vec: u128,
) -> Option<u128> {
    while key != 0 {
        let b = key.trailing_zeros() as usize;
        if reach[b].0 == 0 {
            reach[b] = (key, vec);
            return None;
        }
        key ^= reach[b].0;
        vec ^= reach[b].1;
    }
    Some(vec)
}

/// The kernel of the unchanged rows by its coordinates on a path's prefix, as
/// [`KernelOnPath`] but with every vector vanishing on the prefix kept: the kernel on the
/// prefix and one more vertex follows from it ([`PrefixKernel::with_vertex`]) without
/// reducing every kernel vector again.
pub(super) struct PrefixKernel {
    reach: [(u32, u128); 8],
    zero: ArrayVec<u128, MAX_VERTICES>,
}

impl PrefixKernel {
    /// Adds the kernel vector `vec` whose coordinates on the prefix are `key`.
    fn add(&mut self, key: u32, vec: u128) {
        if let Some(vec) = reach_or_zero(&mut self.reach, key, vec) {
            self.zero.push(vec);
        }
    }

    /// Makes `out` the [`KernelOnPath`] of the prefix (`n0` vertices) and then `z` (index `n0`,
    /// the entries above it are left as they are): the same
    /// one [`KernelOnPath::add`] makes from every kernel vector in order. The new coordinate
    /// is the highest, so every reduction of a lower bit goes as on the prefix; a vector that
    /// vanished on the prefix is reduced only by the first such vector holding `z`.
    fn with_vertex(&self, n0: usize, z: u8, out: &mut KernelOnPath) {
        let z_bit = |x: u128| ((x >> z & 1) as u32) << n0;
        for (to, &(key, vec)) in out.reach.iter_mut().zip(&self.reach[..n0]) {
            *to = if key == 0 { (0, 0) } else { (key | z_bit(vec), vec) };
        }
        out.reach[n0] = (0, 0);
        out.zeros = 0;
        for &vec in &self.zero {
            let vec = if z_bit(vec) == 0 {
                vec
            } else if out.reach[n0].0 == 0 {
                out.reach[n0] = (1 << n0, vec);
                continue;
            } else {
                vec ^ out.reach[n0].1
            };
            out.push_zero(vec);
        }
    }
}

/// A path of moves as [`Nearby::loss_after`] uses it: its distinct vertices, its edges as pairs
/// of their indices, the index of its last vertex (the token after the moves).
pub(super) struct PathShape {
    /// The distinct vertices (`len` of them).
    verts: [u8; 8],
    /// The path's edges (`steps` of them) as indices into `verts`.
    edges: [(u8, u8); 8],
    len: usize,
    steps: usize,
    token: usize,
    mask: u128,
}

impl PathShape {
    fn new(path: &[u8]) -> Self {
        let mut shape =
            PathShape { verts: [0; 8], edges: [(0, 0); 8], len: 0, steps: 0, token: 0, mask: 0 };
        let mut prev = 0u8;
        for (k, &v) in path.iter().enumerate() {
            let i = if shape.mask >> v & 1 == 1 {
                shape.verts[..shape.len].iter().position(|&w| w == v).unwrap_or(0) as u8
            } else {
                shape.verts[shape.len] = v;
                shape.mask |= 1u128 << v;
                shape.len += 1;
                (shape.len - 1) as u8
            };
            if k > 0 {
                shape.edges[shape.steps] = (prev, i);
                shape.steps += 1;
            }
            prev = i;
        }
        shape.token = prev as usize;
        shape
    }

    /// The rows of the path's vertices (by index) after its moves, from the rows before.
    // Not inlined, these two cost 1.4 % more instructions on `s8:52` (callgrind).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn rows_after(&self, rows: &[u128; MAX_VERTICES]) -> [u128; 8] {
        let mut after = [0u128; 8];
        for (row, &v) in after.iter_mut().zip(&self.verts[..self.len]) {
            *row = rows[v as usize];
        }
        for &(i, j) in &self.edges[..self.steps] {
            after[i as usize] &= !(1u128 << self.verts[j as usize]);
            after[j as usize] &= !(1u128 << self.verts[i as usize]);
        }
        after
    }

    /// Whether no two vertices of `x` are adjacent after the path's moves (`after` from
    /// [`PathShape::rows_after`], `rows` before the moves).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn independent(&self, after: &[u128; 8], rows: &[u128; MAX_VERTICES], x: u128) -> bool {
        for (&v, &row) in self.verts[..self.len].iter().zip(after) {
            if x >> v & 1 == 1 && row & x != 0 {
                return false;
            }
        }
        Bitboard128(x & !self.mask).into_iter().all(|w| rows[w as usize] & x == 0)
    }

    /// The bits of `x` on the path's vertices, by index.
    fn on_path(&self, x: u128) -> u32 {
        let mut bits = 0u32;
        for i in 0..self.len {
            bits |= ((x >> self.verts[i] & 1) as u32) << i;
        }
        bits
    }

    /// One kernel vector of the changed rows for each assignment on the path (the token's
    /// coordinate 1) that has one, from the unit reductions `units` (by index) and the
    /// kernel's `reach` ([`Nearby::kernel_on_path`]).
    /// `None` when there are more than [`SOLUTIONS`] (more than it enumerates).
    fn solutions(
        &self,
        units: &[(u128, u128)],
        reach: &[(u32, u128); 8],
        firsts: &mut ArrayVec<u128, SOLUTIONS>,
    ) -> Option<()> {
        // Everything is linear in the assignment: the images of the unit assignments (the
        // solution part, its residue, and its mismatch with the assignment on the path), then
        // every assignment holding the token in Gray-code order.
        let mut images = [(0u128, 0u128, 0u32); 8];
        for &(i, j) in &self.edges[..self.steps] {
            let (i, j) = (i as usize, j as usize);
            // Setting the coordinate of `j` puts `e_i` into `D v`, and the other way round.
            images[i].0 ^= units[j].0;
            images[i].1 ^= units[j].1;
            images[j].0 ^= units[i].0;
            images[j].1 ^= units[i].1;
        }
        for (i, image) in images.iter_mut().enumerate().take(self.len) {
            image.2 = 1 << i ^ self.on_path(image.0);
        }
        gray_solutions(&images[..self.len], self.token, reach, firsts)
    }
}

/// The solvable assignments on a path of `images.len()` vertices (the token's, `token`, set):
/// for each, one kernel vector of the changed rows, from the images of the unit assignments
/// (solution part, residue, mismatch with the assignment on the path) and the kernel's `reach`;
/// every assignment holding the token in Gray-code order. `None` when there are more than
/// [`SOLUTIONS`].
pub(super) fn gray_solutions(
    images: &[(u128, u128, u32)],
    token: usize,
    reach: &[(u32, u128); 8],
    firsts: &mut ArrayVec<u128, SOLUTIONS>,
) -> Option<()> {
    let (mut sum, mut residue, mut mismatch) = images[token];
    // The other coordinates by their rank: the token's index is skipped.
    let count = images.len() - 1;
    for step in 0u32..1 << count {
        if step > 0 {
            let b = step.trailing_zeros() as usize;
            let image = images[b + usize::from(b >= token)];
            sum ^= image.0;
            residue ^= image.1;
            mismatch ^= image.2;
        }
        if residue != 0 {
            continue;
        }
        if let Some(solution) = fix_on_path(reach, sum, mismatch) {
            firsts.try_push(solution).ok()?;
        }
    }
    Some(())
}

/// `x` with the kernel vectors of `reach` (one per lowest bit of their coordinates on a path)
/// added to cancel its mismatch `left` with the assignment on the path, or `None` when they
/// cannot.
pub(super) fn fix_on_path(reach: &[(u32, u128); 8], mut x: u128, mut left: u32) -> Option<u128> {
    while left != 0 {
        let (key, vec) = reach[left.trailing_zeros() as usize];
        if key == 0 {
            return None;
        }
        left ^= key;
        x ^= vec;
    }
    Some(x)
}
