//! Enums that list every variant they have ([`Variants::ALL`]), so that
//! whatever takes each value of a setting in turn (the fuzz harness draws
//! every rule a profile switch may choose, `profile/table.rs`) cannot miss
//! one: the list is written by the same macro that writes the enum, so a
//! variant added to the enum is in the list.

use std::fmt::Debug;

/// A closed set of values, every one listed.
pub trait Variants: Copy + PartialEq + Debug + 'static {
    /// Every variant, in the order the enum declares them.
    const ALL: &'static [Self];
}

/// An enum of unit variants (attributes and doc comments as usual) and its
/// [`Variants`] impl, naming each variant once.
macro_rules! enum_with_variants {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $crate::variants::Variants for $name {
            const ALL: &'static [Self] = &[$( $name::$variant ),+];
        }
    };
}
pub(crate) use enum_with_variants;

#[cfg(test)]
mod tests {
    use super::*;

    enum_with_variants! {
        /// A test enum.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        enum Place {
            /// The first.
            #[default]
            First,
            Second,
            Third,
        }
    }

    #[test]
    fn all_lists_every_variant_in_order() {
        assert_eq!(Place::ALL, [Place::First, Place::Second, Place::Third]);
        assert_eq!(Place::default(), Place::First, "variant attributes kept");
    }
}
