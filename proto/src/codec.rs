//! The gRPC codec of every Pitchmate service and client: prost's wire format, encoded into a
//! contiguous buffer of the message's own and copied into tonic's in one piece.
//!
//! prost writes a message field by field and varint byte by varint byte; into tonic's buffer
//! every one of those bytes went through an out-of-line copy call. Under load (a thousand
//! matches, prompts listing hundreds of actions) that copying was an eighth of the server's
//! CPU. Into a `Vec` the same writes are inlined. Decoding is prost's, unchanged; every call
//! of the server's and the clients' tests goes through both.

use std::marker::PhantomData;

use prost::Message;
use prost::bytes::BufMut;
use tonic::Status;
use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic_prost::ProstDecoder;

/// Named by the generated clients and servers (see the build script).
pub struct PitchmateCodec<T, U> {
    _messages: PhantomData<(T, U)>,
}

impl<T, U> Default for PitchmateCodec<T, U> {
    fn default() -> Self {
        Self {
            _messages: PhantomData,
        }
    }
}

impl<T, U> Codec for PitchmateCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ContiguousEncoder<T>;
    type Decoder = ProstDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ContiguousEncoder {
            _message: PhantomData,
        }
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstDecoder::default()
    }
}

/// Encodes a message into a buffer of its exact size, then hands that to tonic.
pub struct ContiguousEncoder<T> {
    _message: PhantomData<T>,
}

impl<T: Message> Encoder for ContiguousEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        buf.put_slice(&item.encode_to_vec());
        Ok(())
    }
}
