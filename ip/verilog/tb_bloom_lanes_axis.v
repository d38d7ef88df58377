// Self-checking testbench of bloom_lanes_axis (L keys per beat), driven by
// vector files written by `bloom vectors --lanes L` (or `bloom export --lanes
// L`): plain Verilog-2005 plus $fatal for a non-zero exit status, so that
// Icarus Verilog, Verilator --binary or a commercial simulator runs it the
// same way, without Rust or Python.
//
//   in Icarus:    iverilog -g2005 -o tb tb_bloom_lanes_axis.v bloom_lanes_axis.v && vvp -n tb
//   in Verilator: verilator --binary --top-module tb_bloom_lanes_axis tb_bloom_lanes_axis.v bloom_lanes_axis.v
//                 && obj_dir/Vtb_bloom_lanes_axis
// (no comment line of this file may start with the word naming the second
// simulator: it reads such a line as a directive to itself)
//
// Files (formats in the vector directory's README.md), names overridable with
// plusargs: +config=config.hex +stim=stim.hex +expect=expect.hex; +vcd writes
// tb_bloom_lanes_axis.vcd. It drives the streams only (the AXI4-Lite slave
// stays idle): this file was generated for one configuration (below) and
// refuses vectors made for another. It ends with "PASS: ..." and $finish, or "FAIL: ..." and
// $fatal.
//
// Every process is a clocked state machine (always @(posedge clk) with
// nonblocking assignments to the ports).
`timescale 1ns / 1ps
module tb_bloom_lanes_axis;
    parameter LANES = @LANES@;
    parameter KEY_BITS = @KEY_BITS@;
    parameter MAX_STIM = @MAX_STIM@;
    parameter MAX_EXPECT = @MAX_EXPECT@;
    // Cycles without any handshake before the run is declared stuck.
    parameter TIMEOUT = 200000;

    localparam [31:0] MAGIC = 32'h@MAGIC@;
    localparam [31:0] FORMAT = 32'd@FORMAT@;
    // The configuration of the RTL this testbench was generated with:
    // L, k, bank_bits, key_bits, hash code, seed bits 31:0, seed bits 63:32, counter_bits.
    localparam [31:0] CFG_LANES = 32'd@LANES@, CFG_K = 32'd@K@, CFG_BANK_BITS = 32'd@BANK_BITS@,
                      CFG_KEY_BITS = 32'd@KEY_BITS@, CFG_HASH = 32'd@HASH@,
                      CFG_SEED_LO = 32'h@SEED_LO@, CFG_SEED_HI = 32'h@SEED_HI@,
                      CFG_COUNTER_BITS = 32'd@COUNTER_BITS@;
    localparam [3:0] KIND_BEAT = 4'd0, KIND_SLOT = 4'd1, KIND_END = 4'd15;

    reg clk = 1'b0;
    always #5 clk = ~clk;
    reg aresetn = 1'b0;

    reg  [KEY_BITS*LANES-1:0] s_axis_tdata = {KEY_BITS*LANES{1'b0}};
    reg                       s_axis_tvalid = 1'b0;
    wire                      s_axis_tready;
    reg  [3*LANES-1:0]        s_axis_tuser = {3*LANES{1'b0}};
    reg  [8*LANES-1:0]        s_axis_tid = {8*LANES{1'b0}};
    wire                      m_axis_tvalid;
    reg                       m_axis_tready = 1'b0;
    wire [8*LANES-1:0]        m_axis_tdata;
    wire [LANES-1:0]          m_axis_tkeep;
    wire                      m_axis_tuser;
    wire [8*LANES-1:0]        m_axis_tid;
    wire                      m_axis_tlast;
    // Lane 0's side ports (bit access, fill counters, busy, a counting filter's
    // counter access), passed through by the face: inputs idle, outputs unread.
@SIDE_WIRES@
    bloom_lanes_axis dut (
        .aclk(clk), .aresetn(aresetn),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
        .s_axis_tuser(s_axis_tuser), .s_axis_tid(s_axis_tid),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
        .m_axis_tkeep(m_axis_tkeep), .m_axis_tuser(m_axis_tuser), .m_axis_tid(m_axis_tid),
        .m_axis_tlast(m_axis_tlast),
@SIDE_PORTS@
    );

    reg [31:0] cfg [0:13];
    reg [159:0] stim [0:MAX_STIM];
    reg [31:0] expect_mem [0:MAX_EXPECT];
    reg [8*1024-1:0] cfg_file, stim_file, expect_file;
    integer n_stim, n_expect, i;
    reg loaded = 1'b0;
    reg running = 1'b0;

    integer sent = 0;           // beats taken by s_axis (source)
    integer received = 0;       // response beats taken from m_axis (sink)
    integer checked_slots = 0;
    integer errors = 0;
    integer cycles = 0;
    integer quiet = 0;          // cycles since the last handshake

    task fail;
        input [8*120-1:0] why;
        begin
            $display("FAIL: %0s", why);
            $fatal(1, "bloom_lanes_axis vector test failed");
        end
    endtask

    // ---- Sink: holds m_axis_tready low for each response beat's stall, then checks it.
    integer ei = 0;             // header line of the response beat expected next
    integer stall = 0;
    integer j;
    reg [31:0] want_slot;
    reg beat_ok;
    always @(posedge clk) begin
        if (!running) begin
            ei <= 0;
            stall <= {24'd0, expect_mem[0][23:16]};
            m_axis_tready <= 1'b0;
        end else if (m_axis_tvalid && m_axis_tready) begin
            if (ei >= n_expect) begin
                errors <= errors + 1;
                $display("ERROR: response beat %0d was not expected", received);
            end else begin
                beat_ok = (m_axis_tuser === expect_mem[ei][0]) && (m_axis_tlast === 1'b1);
                for (j = 0; j < LANES; j = j + 1) begin
                    want_slot = expect_mem[ei + 1 + j];
                    if (m_axis_tkeep[j] !== want_slot[9] || m_axis_tdata[8*j +: 8] !== {7'd0, want_slot[8]}
                        || m_axis_tid[8*j +: 8] !== want_slot[7:0])
                        beat_ok = 1'b0;
                end
                if (!beat_ok) begin
                    errors <= errors + 1;
                    if (errors < 10) begin
                        $display("ERROR: response beat %0d: got refused %b tkeep %b tdata %h tid %h tlast %b",
                                 received, m_axis_tuser, m_axis_tkeep, m_axis_tdata, m_axis_tid, m_axis_tlast);
                        for (j = 0; j < LANES; j = j + 1) begin
                            want_slot = expect_mem[ei + 1 + j];
                            $display("       slot %0d expected keep %b hit %b tag %0d", j, want_slot[9], want_slot[8], want_slot[7:0]);
                        end
                        $display("       expected refused %b", expect_mem[ei][0]);
                    end
                end
                checked_slots <= checked_slots + LANES;
            end
            received <= received + 1;
            ei <= ei + 1 + LANES;
            if (expect_mem[ei + 1 + LANES][23:16] == 8'd0) begin
                m_axis_tready <= 1'b1;
                stall <= 0;
            end else begin
                m_axis_tready <= 1'b0;
                stall <= {24'd0, expect_mem[ei + 1 + LANES][23:16]} - 1;
            end
        end else if (!m_axis_tready) begin
            if (stall == 0) m_axis_tready <= 1'b1;
            else stall <= stall - 1;
        end
    end

    // ---- Source: reset, then the beats in order, each after its idle cycles.
    localparam S_RESET = 2'd0, S_RUN = 2'd1, S_DONE = 2'd2;
    reg [1:0] state = S_RESET;
    integer wait_cycles = 0;
    integer si = 0;              // header line of the current beat
    integer gap = 0;             // idle cycles left before the current beat
    reg [159:0] slot;
    integer q;                   // the source's slot index (the sink has its own)
    integer drain = 0;           // cycles waited after the last response beat

    task present;                // the beat whose header is line `at`
        input integer at;
        begin
            for (q = 0; q < LANES; q = q + 1) begin
                slot = stim[at + 1 + q];
                s_axis_tdata[KEY_BITS*q +: KEY_BITS] <= slot[KEY_BITS-1:0];
                s_axis_tuser[q] <= slot[140];
                s_axis_tuser[LANES + 2*q +: 2] <= slot[137:136];
                s_axis_tid[8*q +: 8] <= slot[135:128];
            end
        end
    endtask

    always @(posedge clk) begin
        if (loaded) begin
            cycles <= cycles + 1;
            quiet <= quiet + 1;
            if ((m_axis_tvalid && m_axis_tready) || (s_axis_tvalid && s_axis_tready)) quiet <= 0;
            if (quiet > TIMEOUT) begin
                $display("stuck at stim line %0d of %0d: %0d beats taken, %0d response beats received", si, n_stim, sent, received);
                fail("no handshake for TIMEOUT cycles");
            end
        end
        if (loaded) case (state)
            S_RESET: begin
                wait_cycles <= wait_cycles + 1;
                if (wait_cycles == 4) aresetn <= 1'b1;
                if (wait_cycles == 8) begin
                    state <= S_RUN;
                    running <= 1'b1;
                    gap <= {24'd0, stim[0][155:148]};
                end
            end
            S_RUN: begin
                if (s_axis_tvalid && s_axis_tready) begin
                    // Taken: the next beat goes out in the next cycle if it has no idle cycles.
                    sent <= sent + 1;
                    si <= si + 1 + LANES;
                    if (stim[si + 1 + LANES][159:156] == KIND_BEAT && stim[si + 1 + LANES][155:148] == 8'd0) begin
                        present(si + 1 + LANES);
                    end else begin
                        s_axis_tvalid <= 1'b0;
                        gap <= {24'd0, stim[si + 1 + LANES][155:148]};
                    end
                end else if (!s_axis_tvalid) begin
                    if (stim[si][159:156] == KIND_BEAT) begin
                        if (gap == 0) begin
                            present(si);
                            s_axis_tvalid <= 1'b1;
                        end else begin
                            gap <= gap - 1;
                        end
                    end else if (received == cfg[12]) begin
                        state <= S_DONE;
                    end
                end
            end
            S_DONE: if (drain < 64) begin
                // A response beat after the last one expected is an error too.
                drain <= drain + 1;
            end else begin
                if (received != cfg[12]) fail("a different number of response beats than expected");
                if (errors != 0) begin
                    $display("%0d of %0d response beats wrong", errors, received);
                    fail("the lanes' answers differ from the expected vectors");
                end
                $display("PASS: %0d beats, %0d response beats, %0d slots checked, %0d cycles, 0 mismatches",
                         sent, received, checked_slots, cycles);
                $finish;
            end
            default: ;
        endcase
    end

    initial begin
        if ($test$plusargs("vcd")) begin
            $dumpfile("tb_bloom_lanes_axis.vcd");
            $dumpvars(1, dut);
        end
        if (!$value$plusargs("config=%s", cfg_file)) cfg_file = "config.hex";
        if (!$value$plusargs("stim=%s", stim_file)) stim_file = "stim.hex";
        if (!$value$plusargs("expect=%s", expect_file)) expect_file = "expect.hex";
        for (i = 0; i <= 13; i = i + 1) cfg[i] = 32'd0;
        $readmemh(cfg_file, cfg);
        if (cfg[0] !== MAGIC) fail("the config file is missing or not a bloom lanes vector config (bad magic)");
        if (cfg[1] !== FORMAT) fail("the vector format version is not the one this testbench reads");
        if (cfg[2] !== CFG_LANES || cfg[3] !== CFG_K || cfg[4] !== CFG_BANK_BITS || cfg[5] !== CFG_KEY_BITS
            || cfg[6] !== CFG_HASH || cfg[7] !== CFG_SEED_LO || cfg[8] !== CFG_SEED_HI
            || cfg[13] !== CFG_COUNTER_BITS) begin
            $display("vectors for: L=%0d k=%0d bank_bits=%0d key_bits=%0d hash=%0d seed=0x%h%h counter_bits=%0d",
                     cfg[2], cfg[3], cfg[4], cfg[5], cfg[6], cfg[8], cfg[7], cfg[13]);
            $display("this RTL:    L=%0d k=%0d bank_bits=%0d key_bits=%0d hash=%0d seed=0x%h%h counter_bits=%0d",
                     CFG_LANES, CFG_K, CFG_BANK_BITS, CFG_KEY_BITS, CFG_HASH, CFG_SEED_HI, CFG_SEED_LO,
                     CFG_COUNTER_BITS);
            fail("the vectors do not match the configuration of this testbench and its RTL");
        end
        n_stim = cfg[9];
        n_expect = cfg[10];
        if (n_stim < 1 + LANES || n_stim > MAX_STIM) fail("stim line count out of range (parameter MAX_STIM)");
        if (n_expect > MAX_EXPECT || n_expect > n_stim) fail("expect line count out of range (parameter MAX_EXPECT)");
        if (cfg[11] * (1 + LANES) != n_stim || cfg[12] * (1 + LANES) != n_expect) fail("the config's counts do not agree");
        // Each file ends with an end mark right after its last line: a short or
        // a long file (vectors of another run) is refused, in two-state simulators too.
        stim[n_stim] = 160'd0;
        expect_mem[n_expect] = 32'd0;
        $readmemh(stim_file, stim, 0, n_stim);
        $readmemh(expect_file, expect_mem, 0, n_expect);
        if (stim[n_stim][159:156] != KIND_END) fail("the stimulus file's length does not match the config");
        if (expect_mem[n_expect][31:28] != KIND_END) fail("the expect file's length does not match the config");
        loaded = 1'b1;
    end
endmodule
