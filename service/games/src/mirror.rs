//! Engine enums of plain variants and the wire enums that mirror them variant for variant:
//! declared once with [`mirror!`], which writes both directions, so a variant added to one side
//! and not the other fails to compile instead of mapping wrongly.

use crate::GameError;

/// An engine enum and its wire enum.
pub(crate) trait Mirror: Sized {
    type Wire: Into<i32> + TryFrom<i32>;

    /// What a number must name, after "`field` N is not ": "a Gridiron piece kind (1 to 11)".
    const EXPECTED: &'static str;

    fn to_wire(self) -> Self::Wire;

    /// `None` for the wire's unspecified value.
    fn from_wire(wire: Self::Wire) -> Option<Self>;

    /// The number on the wire.
    fn to_proto(self) -> i32 {
        self.to_wire().into()
    }

    /// Reads the number in request field `field`: unspecified or unknown is INVALID_ARGUMENT.
    fn read(raw: i32, field: &str) -> Result<Self, GameError> {
        Self::read_optional(raw, field)?.ok_or_else(|| {
            GameError::InvalidArgument(format!("`{field}` is missing: give {}", Self::EXPECTED))
        })
    }

    /// Reads a number that may be left unspecified; unknown is INVALID_ARGUMENT.
    fn read_optional(raw: i32, field: &str) -> Result<Option<Self>, GameError> {
        let wire = Self::Wire::try_from(raw).map_err(|_| not_one(raw, field, Self::EXPECTED))?;
        Ok(Self::from_wire(wire))
    }
}

fn not_one(raw: i32, field: &str, expected: &str) -> GameError {
    GameError::InvalidArgument(format!("`{field}` {raw} is not {expected}"))
}

/// `mirror!(Engine => WireEnum, "what a number must name" { VariantA, VariantB })`: both enums
/// have exactly these variants under these names (the wire one also `Unspecified`).
macro_rules! mirror {
    ($rules:ident => $wire:ident, $expected:literal { $($variant:ident),+ $(,)? }) => {
        impl $crate::mirror::Mirror for $rules {
            type Wire = pitchmate_proto::v1::$wire;

            const EXPECTED: &'static str = $expected;

            fn to_wire(self) -> Self::Wire {
                match self {
                    $($rules::$variant => pitchmate_proto::v1::$wire::$variant,)+
                }
            }

            fn from_wire(wire: Self::Wire) -> Option<Self> {
                match wire {
                    $(pitchmate_proto::v1::$wire::$variant => Some($rules::$variant),)+
                    pitchmate_proto::v1::$wire::Unspecified => None,
                }
            }
        }
    };
}

pub(crate) use mirror;
