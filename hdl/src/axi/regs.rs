//! The types of the register map (`regmap.rs`, generated from
//! ip/rdl/bloom_axis.rdl): a register, its fields, and who may access them; and
//! the rust-hdl constants the blocks that decode the map are built with.

use rust_hdl::prelude::{Bits, Constant};

/// Software or hardware access to a field (SystemRDL `sw` / `hw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    R,
    W,
    RW,
    None,
}

impl Access {
    pub fn readable(self) -> bool {
        matches!(self, Access::R | Access::RW)
    }
    pub fn writable(self) -> bool {
        matches!(self, Access::W | Access::RW)
    }
}

/// One field of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldDef {
    pub name: &'static str,
    pub lsb: u32,
    pub width: u32,
    /// Access by software (the AXI4-Lite master).
    pub sw: Access,
    /// Access by the hardware.
    pub hw: Access,
    pub reset: Option<u64>,
    /// Reads as 0; a 1 written starts an action for one cycle.
    pub singlepulse: bool,
    /// The hardware acts on a write (BIT_ADDR starts a readback).
    pub swmod: bool,
    /// Names and values of an enumerated field.
    pub encode: Option<&'static [(&'static str, u64)]>,
    pub desc: &'static str,
}

impl FieldDef {
    /// The field's bits in its register.
    pub const fn mask(&self) -> u32 {
        (((1u64 << self.width) - 1) << self.lsb) as u32
    }

    /// `value` placed in the field (bits beyond its width dropped).
    pub const fn place(&self, value: u64) -> u32 {
        ((value << self.lsb) as u32) & self.mask()
    }

    /// The field's value in register word `word`.
    pub const fn get(&self, word: u32) -> u32 {
        (word & self.mask()) >> self.lsb
    }
}

/// One register, or an array of `count` registers `stride` bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterDef {
    pub name: &'static str,
    /// Byte address (of element 0 for an array).
    pub offset: u32,
    pub count: u32,
    pub stride: u32,
    pub title: &'static str,
    pub desc: Option<&'static str>,
    pub fields: &'static [FieldDef],
}

impl RegisterDef {
    /// Byte address of element `i`.
    pub const fn address(&self, i: u32) -> u32 {
        self.offset + i * self.stride
    }

    /// 32-bit word index (address / 4) of element 0.
    pub const fn word(&self) -> u64 {
        (self.offset / 4) as u64
    }

    pub fn readable(&self) -> bool {
        self.fields.iter().any(|f| f.sw.readable())
    }

    pub fn writable(&self) -> bool {
        self.fields.iter().any(|f| f.sw.writable())
    }

    /// The word read right after reset, for registers whose every field has a reset value.
    pub fn reset_value(&self) -> Option<u32> {
        self.fields
            .iter()
            .try_fold(0u32, |acc, f| f.reset.map(|r| acc | f.place(r)))
    }
}

/// A register's 32-bit word index as a 6-bit constant (the map spans 64 words).
pub fn word(r: &RegisterDef) -> Constant<Bits<6>> {
    Constant::new(r.word().into())
}

/// A field's position (its lsb) as a constant.
pub fn at(f: &FieldDef) -> Constant<Bits<5>> {
    Constant::new((f.lsb as u64).into())
}

/// The bits of `fields` as a constant word.
pub fn mask(fields: &[FieldDef]) -> Constant<Bits<32>> {
    value(fields.iter().fold(0, |m, f| m | f.mask()))
}

/// A constant word.
pub fn value(v: u32) -> Constant<Bits<32>> {
    Constant::new((v as u64).into())
}
