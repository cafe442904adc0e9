//! The gRPC codec of every Pitchmate service and client: prost's wire format, encoded into a
//! contiguous buffer of the message's own and copied into tonic's in one piece.
//!
//! prost writes a message field by field and varint byte by varint byte; into tonic's buffer
//! every one of those bytes went through an out-of-line copy call. Under load (a thousand
//! matches, prompts listing hundreds of actions) that copying was an eighth of the server's
//! CPU. Into a `Vec` the same writes are inlined. Decoding is prost's; what it cannot read is
//! the sender's fault, so it is `INVALID_ARGUMENT` with reason `MALFORMED_MESSAGE`, in the shape
//! of every other error of the service, rather than tonic's bare `INTERNAL`. Every call of the
//! server's and the clients' tests goes through both.

use std::marker::PhantomData;

use prost::Message;
use prost::bytes::BufMut;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::ERROR_DOMAIN;

/// The `ErrorInfo.reason` of a message that does not decode.
pub const MALFORMED_MESSAGE: &str = "MALFORMED_MESSAGE";

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
    type Decoder = CheckedDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ContiguousEncoder {
            _message: PhantomData,
        }
    }

    fn decoder(&mut self) -> Self::Decoder {
        CheckedDecoder {
            _message: PhantomData,
        }
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

/// prost's decoding, with a failure reported as the sender's.
pub struct CheckedDecoder<U> {
    _message: PhantomData<U>,
}

impl<U: Message + Default> Decoder for CheckedDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        U::decode(buf).map(Some).map_err(|error| malformed(&error))
    }
}

fn malformed(error: &prost::DecodeError) -> Status {
    let message = format!(
        "the message is not valid protobuf for its type in the pitchmate.v1 contract ({error}); \
         check the sender's generated code matches proto/pitchmate/v1"
    );
    Status::with_error_details(
        Code::InvalidArgument,
        message,
        ErrorDetails::with_error_info(
            MALFORMED_MESSAGE,
            ERROR_DOMAIN,
            std::collections::HashMap::new(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecodable_message_is_the_senders_fault() {
        // Field 1 as a length-delimited value that claims more bytes than follow.
        let error = crate::v1::GetMatchRequest::decode(&[0x0a, 0x05, b'a'][..]).unwrap_err();
        let status = malformed(&error);
        assert_eq!(status.code(), Code::InvalidArgument);
        let info = status.get_details_error_info().expect("ErrorInfo attached");
        assert_eq!(info.reason, MALFORMED_MESSAGE);
        assert_eq!(info.domain, ERROR_DOMAIN);
    }
}
