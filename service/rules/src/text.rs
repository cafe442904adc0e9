//! Building notation text piece by piece, without the formatting machinery: listing a state's
//! legal actions writes hundreds of notations, and `format!` costs several times what pushing
//! the same characters into one buffer does.

/// Appends `n` in decimal, as `n.to_string()` writes it.
pub(crate) fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[start..] {
        out.push(char::from(digit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_to_string_writes_them() {
        let mut samples: Vec<u32> = (0..=1_000).collect();
        samples.extend([9_999, 10_000, 65_535, 1_000_000, u32::MAX - 1, u32::MAX]);
        for n in samples {
            let mut out = "#".to_owned();
            push_number(&mut out, n);
            assert_eq!(out, format!("#{n}"));
        }
    }
}
