//! [`AtaxxMove`]: a clone, a jump or a pass, packed into 16 bits.

use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

use super::tables::{JUMPS, NEIGHBOURS};
use crate::notation::ParseError;

/// An Ataxx move packed into a [`NonZeroU16`].
///
/// ```text
///  15 14 | 13 12 | 11 ........ 6 | 5 ......... 0
///  unused|  kind |  from (jump)  |      to
/// ```
///
/// Kind 1 is a clone (identified by its destination alone: `from` is 0), 2 a jump, 3 the pass
/// (`from` and `to` are 0). The kind is never 0, so `Option<AtaxxMove>` costs no extra space.
/// Squares are stride-8 indices: `8 * rank + file`, a1 = 0, b1 = 1, a2 = 8.
///
/// ```
/// use bitsolve::AtaxxMove;
/// let jump = AtaxxMove::jump(6, 20); // g1 to e3
/// assert_eq!((jump.from(), jump.to()), (Some(6), Some(20)));
/// assert!(AtaxxMove::clone_to(5).is_clone());
/// assert!(AtaxxMove::PASS.is_pass());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AtaxxMove(NonZeroU16);

const _: () = assert!(size_of::<Option<AtaxxMove>>() == size_of::<AtaxxMove>());

impl AtaxxMove {
    /// Position of the destination field.
    pub const TO_SHIFT: u32 = 0;
    /// Position of the source field.
    pub const FROM_SHIFT: u32 = 6;
    /// Position of the kind field.
    pub const KIND_SHIFT: u32 = 12;
    /// Mask of a square field once shifted down.
    pub const SQUARE_MASK: u16 = 0x3F;
    /// Mask of the kind field once shifted down.
    pub const KIND_MASK: u16 = 0x3;
    /// Kind value of a clone.
    pub const KIND_CLONE: u16 = 1;
    /// Kind value of a jump.
    pub const KIND_JUMP: u16 = 2;
    /// Kind value of the pass.
    pub const KIND_PASS: u16 = 3;

    /// The pass (standard rules only, when the side to move has no other move).
    pub const PASS: AtaxxMove = AtaxxMove::pack(Self::KIND_PASS, 0, 0);

    const fn pack(kind: u16, from: u32, to: u32) -> AtaxxMove {
        let bits = (kind << Self::KIND_SHIFT)
            | ((from as u16) << Self::FROM_SHIFT)
            | ((to as u16) << Self::TO_SHIFT);
        match NonZeroU16::new(bits) {
            Some(b) => AtaxxMove(b),
            None => panic!("the kind field is never zero"),
        }
    }

    /// A clone to `to` (the source stone stays, so only the destination matters).
    ///
    /// # Panics
    /// If `to` is not below 64.
    #[inline]
    #[track_caller]
    pub const fn clone_to(to: u32) -> AtaxxMove {
        assert!(to < 64, "square out of range");
        AtaxxMove::pack(Self::KIND_CLONE, 0, to)
    }

    /// A jump from `from` to `to` (the source empties).
    ///
    /// # Panics
    /// If a square is not below 64.
    #[inline]
    #[track_caller]
    pub const fn jump(from: u32, to: u32) -> AtaxxMove {
        assert!(from < 64 && to < 64, "square out of range");
        AtaxxMove::pack(Self::KIND_JUMP, from, to)
    }

    #[inline]
    const fn kind(self) -> u16 {
        (self.0.get() >> Self::KIND_SHIFT) & Self::KIND_MASK
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.kind() == Self::KIND_PASS
    }

    /// Whether this is a clone.
    #[inline]
    pub const fn is_clone(self) -> bool {
        self.kind() == Self::KIND_CLONE
    }

    /// Whether this is a jump.
    #[inline]
    pub const fn is_jump(self) -> bool {
        self.kind() == Self::KIND_JUMP
    }

    /// The destination square, `None` for the pass.
    #[inline]
    pub const fn to(self) -> Option<u32> {
        if self.is_pass() { None } else { Some(self.to_raw()) }
    }

    /// The source square of a jump; `None` for a clone or the pass.
    #[inline]
    pub const fn from(self) -> Option<u32> {
        if self.is_jump() {
            Some(((self.0.get() >> Self::FROM_SHIFT) & Self::SQUARE_MASK) as u32)
        } else {
            None
        }
    }

    /// The destination field, whatever the kind (0 for the pass).
    #[inline]
    pub(crate) const fn to_raw(self) -> u32 {
        ((self.0.get() >> Self::TO_SHIFT) & Self::SQUARE_MASK) as u32
    }

    /// The packed bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }
}

/// Reads a square name such as `c5` (files a..g, ranks 1..7) at byte `offset` of `text`.
pub(crate) fn parse_square(text: &str, offset: usize) -> Result<u32, ParseError> {
    let bytes = text.as_bytes();
    let file = bytes.get(offset).copied().unwrap_or(0);
    if !(b'a'..=b'g').contains(&file) {
        return Err(ParseError::at_offset(text, offset, "expected a file a..g"));
    }
    let rank = bytes.get(offset + 1).copied().unwrap_or(0);
    if !(b'1'..=b'7').contains(&rank) {
        return Err(ParseError::at_offset(text, offset + 1, "expected a rank 1..7"));
    }
    Ok(u32::from(rank - b'1') * 8 + u32::from(file - b'a'))
}

/// Reads a move without a position: `0000`, a clone as its destination (`f1`), or two squares,
/// a clone when they are neighbours (`a7a6`) and a jump when they are 2 apart (`g1e3`).
/// Legality is checked by [`Notation::parse_move`](crate::notation::Notation::parse_move).
impl FromStr for AtaxxMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        match text.len() {
            4 if text == "0000" => Ok(AtaxxMove::PASS),
            2 => Ok(AtaxxMove::clone_to(parse_square(text, 0)?)),
            4 => {
                let (from, to) = (parse_square(text, 0)?, parse_square(text, 2)?);
                if NEIGHBOURS[from as usize] >> to & 1 != 0 {
                    Ok(AtaxxMove::clone_to(to))
                } else if JUMPS[from as usize] >> to & 1 != 0 {
                    Ok(AtaxxMove::jump(from, to))
                } else {
                    Err(ParseError::at_offset(text, 2, "destination is not 1 or 2 squares away"))
                }
            }
            _ => Err(ParseError::at_offset(text, 0, "expected a square, two squares or 0000")),
        }
    }
}

/// Name of a stride-8 square, such as `a1` or `g7`.
pub(crate) fn square_name(sq: u32) -> String {
    let file = char::from(b'a' + (sq % 8) as u8);
    format!("{file}{}", sq / 8 + 1)
}

/// Writes the UAI form: destination for a clone, source and destination for a jump, `0000`.
impl fmt::Display for AtaxxMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (_, None) => f.write_str("0000"),
            (None, Some(to)) => f.write_str(&square_name(to)),
            (Some(from), Some(to)) => write!(f, "{}{}", square_name(from), square_name(to)),
        }
    }
}

impl fmt::Debug for AtaxxMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AtaxxMove({self})")
    }
}
