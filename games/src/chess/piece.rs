//! Colours, roles and pieces, with their letters in FEN and SAN.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The rank a pawn of this colour moves toward, one step at a time.
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The colour's name with a capital: `White`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Role {
    /// Every role, in the order of their numbers.
    pub const ALL: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    /// The letter in FEN and SAN (upper case).
    pub fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
        }
    }

    /// The role of a letter, in either case.
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            'P' => Role::Pawn,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// A byte from 1 to 12 naming the piece.
    pub(crate) fn code(self) -> u8 {
        1 + self.color as u8 * 6 + self.role as u8
    }

    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        let i = code.checked_sub(1)?;
        Some(Piece {
            color: if i < 6 { Color::White } else { Color::Black },
            role: Role::ALL[usize::from(i % 6)],
        })
    }

    /// The letter in FEN: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_letter(c)?;
        let color = match c.is_ascii_uppercase() {
            true => Color::White,
            false => Color::Black,
        };
        Some(Piece { color, role })
    }
}

/// Whether a piece written `colour * 8 + role` is a pawn.
#[inline]
pub fn is_pawn(kind: u8) -> bool {
    kind % 8 == Role::Pawn as u8
}
