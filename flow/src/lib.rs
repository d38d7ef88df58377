//! FPGA flow.
