// Self-checking testbench of bloom_axis, driven by vector files written by
// `bloom vectors` (or `bloom export`): plain Verilog-2005 plus $fatal for a
// non-zero exit status, so that Icarus Verilog, Verilator --binary or a
// commercial simulator runs it the same way, without Rust or Python.
//
//   in Icarus:    iverilog -g2005 -o tb tb_bloom_axis.v bloom_axis.v bloom_core.v && vvp -n tb
//   in Verilator: verilator --binary --top-module tb_bloom_axis tb_bloom_axis.v bloom_axis.v bloom_core.v
//                 && obj_dir/Vtb_bloom_axis
// (no comment line of this file may start with the word naming the second
// simulator: it reads such a line as a directive to itself)
//
// Files (formats in the vector directory's README.md), names overridable with
// plusargs: +config=config.hex +stim=stim.hex +expect=expect.hex; +vcd writes
// tb_bloom_axis.vcd. It reads the core's CONFIG, SEED_LO and SEED_HI registers
// first and refuses vectors made for another configuration. It ends with
// "PASS: ..." and $finish, or "FAIL: ..." and $fatal.
//
// Every process is a clocked state machine (always @(posedge clk) with
// nonblocking assignments): tasks that wait on a clock edge and then test a
// handshake see different values in different simulators.
`timescale 1ns / 1ps
module tb_bloom_axis;
    parameter KEY_BITS = @KEY_BITS@;
    parameter MAX_STEPS = @MAX_STEPS@;
    parameter MAX_RESPONSES = @MAX_RESPONSES@;
    // Cycles without any handshake before the run is declared stuck.
    parameter TIMEOUT = 200000;

    localparam [31:0] MAGIC = 32'h@MAGIC@;
    localparam [31:0] FORMAT = 32'd@FORMAT@;
    localparam STEP_BITS = @STEP_BITS@;
    localparam [3:0] KIND_REQUEST = 4'd0, KIND_WRITE = 4'd1, KIND_READ = 4'd2, KIND_END = 4'd15;
    localparam [7:0] ADDR_CONFIG = 8'h@ADDR_CONFIG@, ADDR_SEED_LO = 8'h@ADDR_SEED_LO@, ADDR_SEED_HI = 8'h@ADDR_SEED_HI@;

    reg clk = 1'b0;
    always #5 clk = ~clk;
    reg aresetn = 1'b0;

    reg  [KEY_BITS-1:0] s_axis_tdata = {KEY_BITS{1'b0}};
    reg                 s_axis_tvalid = 1'b0;
    wire                s_axis_tready;
    reg  [1:0]          s_axis_tuser = 2'd0;
    reg  [7:0]          s_axis_tid = 8'd0;
    wire                m_axis_tvalid;
    reg                 m_axis_tready = 1'b0;
    wire [7:0]          m_axis_tdata;
    wire [7:0]          m_axis_tid;
    wire                m_axis_tlast;
    reg  [7:0]  s_axil_awaddr = 8'd0;
    reg         s_axil_awvalid = 1'b0;
    wire        s_axil_awready;
    reg  [31:0] s_axil_wdata = 32'd0;
    reg  [3:0]  s_axil_wstrb = 4'd0;
    reg         s_axil_wvalid = 1'b0;
    wire        s_axil_wready;
    wire [1:0]  s_axil_bresp;
    wire        s_axil_bvalid;
    reg         s_axil_bready = 1'b0;
    reg  [7:0]  s_axil_araddr = 8'd0;
    reg         s_axil_arvalid = 1'b0;
    wire        s_axil_arready;
    wire [31:0] s_axil_rdata;
    wire [1:0]  s_axil_rresp;
    wire        s_axil_rvalid;
    reg         s_axil_rready = 1'b0;

    bloom_axis dut (
        .aclk(clk), .aresetn(aresetn),
        .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), .s_axis_tdata(s_axis_tdata),
        .s_axis_tuser(s_axis_tuser), .s_axis_tid(s_axis_tid),
        .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tdata(m_axis_tdata),
        .m_axis_tid(m_axis_tid), .m_axis_tlast(m_axis_tlast),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awprot(3'd0), .s_axil_awvalid(s_axil_awvalid),
        .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb),
        .s_axil_wvalid(s_axil_wvalid), .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
        .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready), .s_axil_araddr(s_axil_araddr),
        .s_axil_arprot(3'd0), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
        .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
        .s_axil_rready(s_axil_rready)
    );

    reg [31:0] cfg [0:@CONFIG_LAST@];
    reg [STEP_BITS-1:0] stim [0:MAX_STEPS];
    reg [31:0] expect_mem [0:MAX_RESPONSES];
    reg [8*1024-1:0] cfg_file, stim_file, expect_file;
    integer n_steps, n_responses, i;
    reg loaded = 1'b0;
    reg running = 1'b0;

    // Counts shared by the processes (each written by one of them).
    integer sent = 0;           // requests taken by s_axis (controller)
    integer received = 0;       // responses taken from m_axis (sink)
    integer response_errors = 0;
    integer register_errors = 0;
    integer register_accesses = 0;
    integer cycles = 0;
    integer quiet = 0;          // cycles since the last handshake

    // ---- Sink: holds m_axis_tready low for each response's stall, then checks it.
    integer ri = 0;
    integer stall = 0;
    reg [31:0] want;
    always @(posedge clk) begin
        if (!running) begin
            ri <= 0;
            stall <= {24'd0, expect_mem[0][23:16]};
            m_axis_tready <= 1'b0;
        end else if (m_axis_tvalid && m_axis_tready) begin
            want = expect_mem[ri];
            if (ri >= n_responses) begin
                response_errors <= response_errors + 1;
                $display("ERROR: response %0d was not expected (tag %0d)", ri, m_axis_tid);
            end else if (m_axis_tdata !== {7'd0, want[8]} || m_axis_tid !== want[7:0] || m_axis_tlast !== 1'b1) begin
                response_errors <= response_errors + 1;
                if (response_errors < 10)
                    $display("ERROR: response %0d: got hit %0d tag %0d (tdata %h, tlast %b), expected hit %0d tag %0d",
                             ri, m_axis_tdata[0], m_axis_tid, m_axis_tdata, m_axis_tlast, want[8], want[7:0]);
            end
            received <= received + 1;
            ri <= ri + 1;
            if (expect_mem[ri + 1][23:16] == 8'd0) begin
                m_axis_tready <= 1'b1;
                stall <= 0;
            end else begin
                m_axis_tready <= 1'b0;
                stall <= {24'd0, expect_mem[ri + 1][23:16]} - 1;
            end
        end else if (!m_axis_tready) begin
            if (stall == 0) m_axis_tready <= 1'b1;
            else stall <= stall - 1;
        end
    end

    task fail;
        input [8*120-1:0] why;
        begin
            $display("FAIL: %0s", why);
            $fatal(1, "bloom_axis vector test failed");
        end
    endtask

    // ---- Controller: reset, configuration check, then the steps in order.
    // Requests go out back to back (after their idle cycles); a register step
    // waits until every request before it has been answered.
    localparam S_RESET = 3'd0, S_CHECK = 3'd1, S_RUN = 3'd2, S_REG = 3'd3, S_DONE = 3'd4;
    reg [2:0] state = S_RESET;
    integer wait_cycles = 0;
    integer si = 0;              // current step
    integer gap = 0;             // idle cycles left before the current request
    integer check = 0;           // configuration register being read (S_CHECK)
    reg [31:0] core_words [0:2];
    reg [STEP_BITS-1:0] step;
    reg [STEP_BITS-1:0] next;
    // One register access (S_CHECK, S_REG).
    reg        acc_write;
    reg [7:0]  acc_addr;
    reg [31:0] acc_data, acc_mask, acc_poll_mask, acc_poll_limit;
    reg [3:0]  acc_strobes;
    reg [1:0]  acc_resp;
    reg [1:0]  phase = 2'd0;     // 0 issue, 1 address/data handshakes, 2 response
    reg        aw_done, w_done;
    integer    polls = 0;

    always @(posedge clk) begin
        if (loaded) begin
            cycles <= cycles + 1;
            quiet <= quiet + 1;
            if (m_axis_tvalid && m_axis_tready) quiet <= 0;
            if (quiet > TIMEOUT) begin
                $display("stuck at step %0d of %0d: %0d requests taken, %0d responses received", si, n_steps, sent, received);
                fail("no handshake for TIMEOUT cycles");
            end
        end
        if (loaded) case (state)
            S_RESET: begin
                wait_cycles <= wait_cycles + 1;
                if (wait_cycles == 4) aresetn <= 1'b1;
                if (wait_cycles == 8) begin
                    state <= S_CHECK;
                    check <= 0;
                    phase <= 2'd0;
                end
            end
            S_CHECK, S_REG: case (phase)
                2'd0: begin
                    if (state == S_CHECK) begin
                        acc_write = 1'b0;
                        acc_addr = (check == 0) ? ADDR_CONFIG : (check == 1) ? ADDR_SEED_LO : ADDR_SEED_HI;
                        acc_resp = 2'd0;
                        acc_poll_mask = 32'd0;
                        acc_poll_limit = 32'd1;
                    end else begin
                        acc_write = step[STEP_BITS-1 -: 4] == KIND_WRITE;
                        acc_strobes = step[171:168];
                        acc_resp = step[165:164];
                        acc_addr = step[159:152];
                        acc_data = step[127:96];
                        acc_mask = step[95:64];
                        acc_poll_mask = step[63:32];
                        acc_poll_limit = step[31:0];
                    end
                    if (acc_write) begin
                        s_axil_awaddr <= acc_addr;
                        s_axil_awvalid <= 1'b1;
                        s_axil_wdata <= acc_data;
                        s_axil_wstrb <= acc_strobes;
                        s_axil_wvalid <= 1'b1;
                        s_axil_bready <= 1'b1;
                        aw_done <= 1'b0;
                        w_done <= 1'b0;
                    end else begin
                        s_axil_araddr <= acc_addr;
                        s_axil_arvalid <= 1'b1;
                        s_axil_rready <= 1'b1;
                    end
                    phase <= 2'd1;
                end
                2'd1: begin
                    if (acc_write) begin
                        if (s_axil_awvalid && s_axil_awready) begin
                            s_axil_awvalid <= 1'b0;
                            aw_done <= 1'b1;
                        end
                        if (s_axil_wvalid && s_axil_wready) begin
                            s_axil_wvalid <= 1'b0;
                            w_done <= 1'b1;
                        end
                        if ((aw_done || (s_axil_awvalid && s_axil_awready)) && (w_done || (s_axil_wvalid && s_axil_wready))) begin
                            phase <= 2'd2;
                            quiet <= 0;
                        end
                    end else if (s_axil_arvalid && s_axil_arready) begin
                        s_axil_arvalid <= 1'b0;
                        phase <= 2'd2;
                        quiet <= 0;
                    end
                end
                default: begin
                    if (acc_write && s_axil_bvalid && s_axil_bready) begin
                        s_axil_bready <= 1'b0;
                        register_accesses <= register_accesses + 1;
                        quiet <= 0;
                        if (s_axil_bresp !== acc_resp) begin
                            register_errors <= register_errors + 1;
                            $display("ERROR: step %0d: write 0x%h to 0x%h answered %0d, expected %0d", si, acc_data, acc_addr, s_axil_bresp, acc_resp);
                        end
                        phase <= 2'd0;
                        si <= si + 1;
                        next = stim[si + 1];
                        gap <= {24'd0, next[171:164]};
                        state <= S_RUN;
                    end
                    if (!acc_write && s_axil_rvalid && s_axil_rready) begin
                        s_axil_rready <= 1'b0;
                        register_accesses <= register_accesses + 1;
                        quiet <= 0;
                        phase <= 2'd0;
                        if (state == S_CHECK) begin
                            core_words[check] = s_axil_rdata;
                            if (s_axil_rresp !== 2'd0) fail("the core's configuration registers cannot be read");
                            if (check == 2) begin
                                if (core_words[0] !== cfg[10] || core_words[1] !== cfg[11] || core_words[2] !== cfg[12]) begin
                                    $display("vectors for: k=%0d bank_bits=%0d key_bits=%0d hash=%0d seed=0x%h%h (CONFIG 0x%h SEED 0x%h%h)",
                                             cfg[2], cfg[3], cfg[4], cfg[5], cfg[7], cfg[6], cfg[10], cfg[12], cfg[11]);
                                    $display("the core:    CONFIG 0x%h SEED 0x%h%h (fields: @CONFIG_FIELDS@)",
                                             core_words[0], core_words[2], core_words[1]);
                                    fail("the vectors do not match the core's configuration");
                                end
                                state <= S_RUN;
                                running <= 1'b1;
                                next = stim[0];
                                gap <= {24'd0, next[171:164]};
                            end
                            check <= check + 1;
                        end else if ((s_axil_rresp === 2'd0) && (acc_resp == 2'd0) && ((s_axil_rdata & acc_poll_mask) !== (acc_data & acc_poll_mask))
                                     && (polls + 1 < acc_poll_limit)) begin
                            polls <= polls + 1;   // not there yet: read again
                        end else begin
                            polls <= 0;
                            if (s_axil_rresp !== acc_resp || (acc_resp == 2'd0 && ((s_axil_rdata & acc_mask) !== (acc_data & acc_mask)))) begin
                                register_errors <= register_errors + 1;
                                $display("ERROR: step %0d: read 0x%h answered %0d with 0x%h, expected %0d with 0x%h (mask 0x%h, %0d reads)",
                                         si, acc_addr, s_axil_rresp, s_axil_rdata, acc_resp, acc_data, acc_mask, polls + 1);
                            end
                            si <= si + 1;
                            next = stim[si + 1];
                            gap <= {24'd0, next[171:164]};
                            state <= S_RUN;
                        end
                    end
                end
            endcase
            S_RUN: begin
                step = stim[si];
                if (s_axis_tvalid && s_axis_tready) begin
                    // Taken: the next request goes out in the next cycle if it has no idle cycles.
                    sent <= sent + 1;
                    quiet <= 0;
                    si <= si + 1;
                    next = stim[si + 1];
                    if (next[STEP_BITS-1 -: 4] == KIND_REQUEST && next[171:164] == 8'd0) begin
                        s_axis_tuser <= next[137:136];
                        s_axis_tid <= next[135:128];
                        s_axis_tdata <= next[KEY_BITS-1:0];
                    end else begin
                        s_axis_tvalid <= 1'b0;
                        gap <= {24'd0, next[171:164]};
                    end
                end else if (!s_axis_tvalid) begin
                    if (step[STEP_BITS-1 -: 4] == KIND_REQUEST) begin
                        if (gap == 0) begin
                            s_axis_tuser <= step[137:136];
                            s_axis_tid <= step[135:128];
                            s_axis_tdata <= step[KEY_BITS-1:0];
                            s_axis_tvalid <= 1'b1;
                        end else begin
                            gap <= gap - 1;
                        end
                    end else if (sent == received) begin
                        if (step[STEP_BITS-1 -: 4] == KIND_END) state <= S_DONE;
                        else state <= S_REG;
                    end
                end
            end
            S_DONE: begin
                if (received != n_responses) fail("fewer responses than expected");
                if (response_errors != 0 || register_errors != 0) begin
                    $display("%0d of %0d responses and %0d of %0d register accesses wrong",
                             response_errors, n_responses, register_errors, register_accesses);
                    fail("the core's answers differ from the expected vectors");
                end
                $display("PASS: %0d requests, %0d responses, %0d register accesses, %0d cycles, 0 mismatches",
                         sent, received, register_accesses, cycles);
                $finish;
            end
            default: ;
        endcase
    end

    initial begin
        if ($test$plusargs("vcd")) begin
            $dumpfile("tb_bloom_axis.vcd");
            $dumpvars(1, dut);
        end
        if (!$value$plusargs("config=%s", cfg_file)) cfg_file = "config.hex";
        if (!$value$plusargs("stim=%s", stim_file)) stim_file = "stim.hex";
        if (!$value$plusargs("expect=%s", expect_file)) expect_file = "expect.hex";
        for (i = 0; i <= @CONFIG_LAST@; i = i + 1) cfg[i] = 32'd0;
        $readmemh(cfg_file, cfg);
        if (cfg[0] !== MAGIC) fail("the config file is missing or not a bloom vector config (bad magic)");
        if (cfg[1] !== FORMAT) fail("the vector format version is not the one this testbench reads");
        if (cfg[4] != KEY_BITS) begin
            $display("vectors for key_bits=%0d; this testbench drives KEY_BITS=%0d", cfg[4], KEY_BITS);
            fail("the vectors do not match the core's configuration");
        end
        n_steps = cfg[8];
        n_responses = cfg[9];
        if (n_steps < 1 || n_steps > MAX_STEPS) fail("step count out of range (parameter MAX_STEPS)");
        if (n_responses > MAX_RESPONSES || n_responses > n_steps) fail("response count out of range (parameter MAX_RESPONSES)");
        // Each file ends with an end mark right after its last entry: a short or
        // a long file (vectors of another run) is refused, in two-state simulators too.
        stim[n_steps] = {STEP_BITS{1'b0}};
        expect_mem[n_responses] = 32'd0;
        $readmemh(stim_file, stim, 0, n_steps);
        $readmemh(expect_file, expect_mem, 0, n_responses);
        if (stim[n_steps][STEP_BITS-1 -: 4] != KIND_END) fail("the stimulus file's length does not match the config");
        if (expect_mem[n_responses][31:28] != KIND_END) fail("the expect file's length does not match the config");
        loaded = 1'b1;
    end
endmodule
