//! Verilator co-simulation.
