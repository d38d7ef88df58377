//! Filter configuration (contract §1): the parameters, their ranges and
//! their validation are the shared table of `bloom_params`; this model reads
//! them from there and implements everything else on its own.

pub use bloom_params::{
    max_key, CoreParams, HashFamily, ParamError, Value, BANK_BITS, COUNTER_BITS,
    COUNTER_BITS_RANGE, K, KEY_BITS, PARAMS,
};

pub(crate) fn check_key_bits(key_bits: u32) -> Result<(), crate::error::ConfigError> {
    KEY_BITS.check(key_bits as u64)?;
    Ok(())
}
