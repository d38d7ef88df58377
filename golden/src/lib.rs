//! Software reference model of the partitioned Bloom filter (see docs/contract.md).

pub mod theory;
