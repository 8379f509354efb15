//! The byte codec of the compiled lessons (`compact.rs`), open to other programs of one
//! build that pass values between them (the browser app and its worker): numbers are
//! LEB128 (signed ones zigzagged), floats their IEEE bits, strings a length and UTF-8
//! bytes, enums a one-byte tag. The writer and the reader are always the same build, so
//! there is no versioning.

use std::ops::Range;

pub use crate::compact::DecodeError;

/// Bytes being written.
#[derive(Default)]
pub struct Writer(Vec<u8>);

/// Bytes being read.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// Bytes as they are, no length (a magic number).
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    /// A LEB128 number.
    pub fn uint(&mut self, mut n: u64) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }

    /// One byte: an enum's variant.
    pub fn tag(&mut self, tag: u8) {
        self.0.push(tag);
    }
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// Fails unless every byte has been read.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error("bytes left over"))
        }
    }

    pub fn error(&self, message: &'static str) -> DecodeError {
        DecodeError {
            at: self.pos,
            message,
        }
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| self.error("unexpected end"))?;
        let bytes = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    pub fn uint(&mut self) -> Result<u64, DecodeError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.take(1)?[0];
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(self.error("number too long"))
    }

    pub fn tag(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    pub fn bad_tag<T>(&self) -> Result<T, DecodeError> {
        Err(self.error("unknown tag"))
    }
}

/// A value that writes itself to bytes and reads itself back.
pub trait Codec: Sized {
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

impl Codec for u64 {
    fn put(&self, w: &mut Writer) {
        w.uint(*self);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.uint()
    }
}

impl Codec for u32 {
    fn put(&self, w: &mut Writer) {
        w.uint(u64::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        u32::try_from(r.uint()?).map_err(|_| r.error("number out of range"))
    }
}

impl Codec for usize {
    fn put(&self, w: &mut Writer) {
        w.uint(*self as u64);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        usize::try_from(r.uint()?).map_err(|_| r.error("number out of range"))
    }
}

impl Codec for i64 {
    fn put(&self, w: &mut Writer) {
        w.uint(((*self << 1) ^ (*self >> 63)) as u64);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let n = r.uint()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }
}

impl Codec for f64 {
    fn put(&self, w: &mut Writer) {
        w.0.extend_from_slice(&self.to_bits().to_le_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let bytes: [u8; 8] = r.take(8)?.try_into().expect("8 bytes");
        Ok(f64::from_bits(u64::from_le_bytes(bytes)))
    }
}

impl Codec for bool {
    fn put(&self, w: &mut Writer) {
        w.tag(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => r.bad_tag(),
        }
    }
}

impl Codec for String {
    fn put(&self, w: &mut Writer) {
        self.len().put(w);
        w.0.extend_from_slice(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let len = usize::get(r)?;
        let bytes = r.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| r.error("text is not UTF-8"))
    }
}

impl<T: Codec> Codec for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => w.tag(0),
            Some(x) => {
                w.tag(1);
                x.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            0 => Ok(None),
            1 => T::get(r).map(Some),
            _ => r.bad_tag(),
        }
    }
}

/// A box is its contents: big, rare parts of a message (a counterexample) are boxed so
/// the message's other variants stay small.
impl<T: Codec> Codec for Box<T> {
    fn put(&self, w: &mut Writer) {
        (**self).put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        T::get(r).map(Box::new)
    }
}

impl<T: Codec> Codec for Vec<T> {
    fn put(&self, w: &mut Writer) {
        self.len().put(w);
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let len = usize::get(r)?;
        // Each item takes at least a byte: a corrupt length cannot reserve much.
        let mut out = Vec::with_capacity(len.min(r.bytes.len() - r.pos));
        for _ in 0..len {
            out.push(T::get(r)?);
        }
        Ok(out)
    }
}

impl<A: Codec, B: Codec> Codec for (A, B) {
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

impl Codec for Range<usize> {
    fn put(&self, w: &mut Writer) {
        self.start.put(w);
        self.end.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(usize::get(r)?..usize::get(r)?)
    }
}

/// Implements [`Codec`] for a struct with named fields, each field a `Codec`, by
/// destructuring it whole: a new field does not compile until it is encoded.
#[macro_export]
macro_rules! codec_struct {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl $crate::codec::Codec for $name {
            fn put(&self, w: &mut $crate::codec::Writer) {
                let $name { $($field),* } = self;
                $($crate::codec::Codec::put($field, w);)*
            }
            fn get(
                r: &mut $crate::codec::Reader<'_>,
            ) -> Result<Self, $crate::codec::DecodeError> {
                $(let $field = $crate::codec::Codec::get(r)?;)*
                Ok($name { $($field),* })
            }
        }
    };
}
