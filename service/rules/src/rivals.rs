//! Naming a mover's origin only when another piece of its kind could make the same move, as
//! chess notation does: the data for a whole list of actions, built once.

use crate::geometry::Square;

/// A seat's moves chained by target square and kind of move (a plain move, a capture, a
/// kick...): which other pieces of a kind could make the same move is read from the few moves
/// to one square, instead of generating every piece's moves again for each action of a list.
pub(crate) struct Rivals<K> {
    files: i8,
    first_rank: i8,
    ranks: i8,
    /// Per kind of move and target square: the latest entry, or `NONE`.
    heads: Vec<u32>,
    /// The mover's kind, its square, and the previous entry with the same target and kind of
    /// move.
    entries: Vec<(K, Square, u32)>,
}

const NONE: u32 = u32::MAX;

impl<K: Copy + Eq> Rivals<K> {
    /// A table for targets on files `1..=files` and ranks `first_rank..=last_rank`, for
    /// `classes` kinds of move. Moves to other squares are not recorded and have no rivals.
    pub(crate) fn new(files: i8, first_rank: i8, last_rank: i8, classes: usize) -> Self {
        let ranks = last_rank - first_rank + 1;
        Self {
            files,
            first_rank,
            ranks,
            heads: vec![NONE; classes * files as usize * ranks as usize],
            entries: Vec::new(),
        }
    }

    fn index(&self, class: usize, to: Square) -> Option<usize> {
        let file = to.file - 1;
        let rank = to.rank - self.first_rank;
        if !(0..self.files).contains(&file) || !(0..self.ranks).contains(&rank) {
            return None;
        }
        let per_class = self.files as usize * self.ranks as usize;
        let index = class * per_class + rank as usize * self.files as usize + file as usize;
        (index < self.heads.len()).then_some(index)
    }

    /// Records that a piece of `kind` on `from` can make a move of `class` to `to`.
    pub(crate) fn add(&mut self, class: usize, to: Square, kind: K, from: Square) {
        let Some(index) = self.index(class, to) else {
            return;
        };
        let entry = u32::try_from(self.entries.len()).expect("fewer moves than u32::MAX");
        self.entries.push((kind, from, self.heads[index]));
        self.heads[index] = entry;
    }

    /// The squares of the pieces of `kind`, other than the one on `from`, that can make a move
    /// of `class` to `to`.
    pub(crate) fn of(
        &self,
        class: usize,
        to: Square,
        kind: K,
        from: Square,
    ) -> impl Iterator<Item = Square> + '_ {
        let mut next = self
            .index(class, to)
            .map_or(NONE, |index| self.heads[index]);
        std::iter::from_fn(move || {
            while next != NONE {
                let (k, origin, previous) = self.entries[next as usize];
                next = previous;
                if k == kind && origin != from {
                    return Some(origin);
                }
            }
            None
        })
    }
}

/// Appends the shortest origin hint that tells a move from `from` apart from the same move by
/// its `rivals`: nothing when there are none, else the file letter when no rival shares the
/// file, else the rank when none shares the rank, else the whole square.
pub(crate) fn push_origin_hint(
    text: &mut String,
    rivals: impl Iterator<Item = Square>,
    from: Square,
) {
    let (mut any, mut file_shared, mut rank_shared) = (false, false, false);
    for rival in rivals {
        any = true;
        file_shared |= rival.file == from.file;
        rank_shared |= rival.rank == from.rank;
    }
    if !any {
        return;
    }
    if !file_shared {
        text.push((b'a' as i8 + from.file - 1) as u8 as char);
    } else if !rank_shared {
        text.push_str(&from.rank.to_string());
    } else {
        from.push_name(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn rivals_are_the_other_pieces_of_the_kind_with_the_same_move() {
        let mut rivals = Rivals::new(8, 1, 8, 2);
        rivals.add(0, sq("d5"), 'N', sq("c3"));
        rivals.add(0, sq("d5"), 'N', sq("e3"));
        rivals.add(0, sq("d5"), 'Q', sq("d1"));
        rivals.add(1, sq("d5"), 'N', sq("f4"));
        rivals.add(0, sq("z9"), 'N', sq("a1"));
        let of = |class, to: &str, kind, from: &str| -> Vec<Square> {
            rivals.of(class, sq(to), kind, sq(from)).collect()
        };
        assert_eq!(of(0, "d5", 'N', "c3"), vec![sq("e3")]);
        assert_eq!(of(0, "d5", 'Q', "d1"), vec![]);
        assert_eq!(of(1, "d5", 'N', "c3"), vec![sq("f4")]);
        assert_eq!(of(0, "d6", 'N', "c3"), vec![]);
        assert_eq!(of(0, "z9", 'N', "b1"), vec![]);
    }

    #[test]
    fn the_hint_is_the_file_then_the_rank_then_the_square() {
        let hint = |rivals: &[&str], from: &str| {
            let mut text = String::new();
            push_origin_hint(&mut text, rivals.iter().map(|r| sq(r)), sq(from));
            text
        };
        assert_eq!(hint(&[], "c3"), "");
        assert_eq!(hint(&["e3"], "c3"), "c");
        assert_eq!(hint(&["c5"], "c3"), "3");
        assert_eq!(hint(&["c5", "e3"], "c3"), "c3");
        assert_eq!(hint(&["c15"], "c13"), "13");
    }
}
