

module bloom_core(clock,reset,req_valid,req_ready,req_op,req_key,req_tag,resp_valid,resp_ready,resp_hit,resp_tag,rb_req,rb_bank,rb_addr,rb_write,rb_wdata,rb_valid,rb_data,fill_bank,fill_count,busy,scrub_req,scrub_busy,scrub_mismatch);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  req_valid;
    output reg  req_ready;
    input wire  [1:0] req_op;
    input wire  [63:0] req_key;
    input wire  [7:0] req_tag;
    output reg  resp_valid;
    input wire  resp_ready;
    output reg  resp_hit;
    output reg  [7:0] resp_tag;
    input wire  rb_req;
    input wire  [3:0] rb_bank;
    input wire  [15:0] rb_addr;
    input wire  rb_write;
    input wire  rb_wdata;
    output reg  rb_valid;
    output reg  rb_data;
    input wire  [3:0] fill_bank;
    output reg  [16:0] fill_count;
    output reg  busy;
    input wire  scrub_req;
    output reg  scrub_busy;
    output reg  [15:0] scrub_mismatch;
    
    // Stub signals
    reg  control$clock;
    reg  control$reset;
    reg  control$req_valid;
    wire  control$req_ready;
    reg  [1:0] control$req_op;
    reg  [63:0] control$req_key;
    reg  [7:0] control$req_tag;
    wire  control$resp_valid;
    reg  control$resp_ready;
    wire  control$resp_hit;
    wire  [7:0] control$resp_tag;
    reg  control$rb_req;
    reg  [3:0] control$rb_bank;
    reg  [15:0] control$rb_addr;
    reg  control$rb_write;
    reg  control$rb_wdata;
    wire  control$rb_valid;
    wire  control$rb_data;
    wire  control$busy;
    reg  control$scrub_req;
    wire  control$scrub_busy;
    wire  [63:0] control$key1;
    wire  [255:0] control$stream2;
    wire  control$is_rb2;
    wire  [15:0] control$rb_addr2;
    wire  [15:0] control$write4;
    wire  control$wdata4;
    wire  control$clear5;
    wire  control$counted4;
    wire  control$scrub4;
    wire  [16:0] control$ptr3;
    wire  control$scrub_zero5;
    wire  control$scrub_finish;
    wire  control$power_up;
    wire  control$sweep_en;
    wire  control$sweep_en3;
    wire  [15:0] control$sweep_addr3;
    wire  [15:0] control$lane_tap_write_next;
    wire  control$lane_tap_wdata_next;
    wire  control$lane_tap_valid6;
    wire  control$lane_tap_hit6;
    wire  [15:0] control$rb_select5;
    reg  control$all_bits5;
    reg  control$rb_bit5;
    reg  parts$0$clock;
    reg  parts$0$reset;
    reg  [63:0] parts$0$key1;
    reg  [255:0] parts$0$stream2;
    reg  parts$0$is_rb2;
    reg  [15:0] parts$0$rb_addr2;
    reg  [15:0] parts$0$write4;
    reg  parts$0$wdata4;
    reg  parts$0$clear5;
    reg  parts$0$counted4;
    reg  parts$0$scrub4;
    reg  [16:0] parts$0$ptr3;
    reg  parts$0$scrub_zero5;
    reg  parts$0$scrub_finish;
    reg  parts$0$power_up;
    reg  parts$0$sweep_en;
    reg  parts$0$sweep_en3;
    reg  [15:0] parts$0$sweep_addr3;
    wire  parts$0$bit5;
    wire  [7:0] parts$0$fill_low;
    wire  [8:0] parts$0$fill_high;
    wire  parts$0$scrub_mismatch;
    wire  [15:0] parts$0$write_addr_next;
    reg  parts$1$clock;
    reg  parts$1$reset;
    reg  [63:0] parts$1$key1;
    reg  [255:0] parts$1$stream2;
    reg  parts$1$is_rb2;
    reg  [15:0] parts$1$rb_addr2;
    reg  [15:0] parts$1$write4;
    reg  parts$1$wdata4;
    reg  parts$1$clear5;
    reg  parts$1$counted4;
    reg  parts$1$scrub4;
    reg  [16:0] parts$1$ptr3;
    reg  parts$1$scrub_zero5;
    reg  parts$1$scrub_finish;
    reg  parts$1$power_up;
    reg  parts$1$sweep_en;
    reg  parts$1$sweep_en3;
    reg  [15:0] parts$1$sweep_addr3;
    wire  parts$1$bit5;
    wire  [7:0] parts$1$fill_low;
    wire  [8:0] parts$1$fill_high;
    wire  parts$1$scrub_mismatch;
    wire  [15:0] parts$1$write_addr_next;
    reg  parts$2$clock;
    reg  parts$2$reset;
    reg  [63:0] parts$2$key1;
    reg  [255:0] parts$2$stream2;
    reg  parts$2$is_rb2;
    reg  [15:0] parts$2$rb_addr2;
    reg  [15:0] parts$2$write4;
    reg  parts$2$wdata4;
    reg  parts$2$clear5;
    reg  parts$2$counted4;
    reg  parts$2$scrub4;
    reg  [16:0] parts$2$ptr3;
    reg  parts$2$scrub_zero5;
    reg  parts$2$scrub_finish;
    reg  parts$2$power_up;
    reg  parts$2$sweep_en;
    reg  parts$2$sweep_en3;
    reg  [15:0] parts$2$sweep_addr3;
    wire  parts$2$bit5;
    wire  [7:0] parts$2$fill_low;
    wire  [8:0] parts$2$fill_high;
    wire  parts$2$scrub_mismatch;
    wire  [15:0] parts$2$write_addr_next;
    reg  parts$3$clock;
    reg  parts$3$reset;
    reg  [63:0] parts$3$key1;
    reg  [255:0] parts$3$stream2;
    reg  parts$3$is_rb2;
    reg  [15:0] parts$3$rb_addr2;
    reg  [15:0] parts$3$write4;
    reg  parts$3$wdata4;
    reg  parts$3$clear5;
    reg  parts$3$counted4;
    reg  parts$3$scrub4;
    reg  [16:0] parts$3$ptr3;
    reg  parts$3$scrub_zero5;
    reg  parts$3$scrub_finish;
    reg  parts$3$power_up;
    reg  parts$3$sweep_en;
    reg  parts$3$sweep_en3;
    reg  [15:0] parts$3$sweep_addr3;
    wire  parts$3$bit5;
    wire  [7:0] parts$3$fill_low;
    wire  [8:0] parts$3$fill_high;
    wire  parts$3$scrub_mismatch;
    wire  [15:0] parts$3$write_addr_next;
    
    // Sub module instances
    bloom_core_control control(
        .clock(control$clock),
        .reset(control$reset),
        .req_valid(control$req_valid),
        .req_ready(control$req_ready),
        .req_op(control$req_op),
        .req_key(control$req_key),
        .req_tag(control$req_tag),
        .resp_valid(control$resp_valid),
        .resp_ready(control$resp_ready),
        .resp_hit(control$resp_hit),
        .resp_tag(control$resp_tag),
        .rb_req(control$rb_req),
        .rb_bank(control$rb_bank),
        .rb_addr(control$rb_addr),
        .rb_write(control$rb_write),
        .rb_wdata(control$rb_wdata),
        .rb_valid(control$rb_valid),
        .rb_data(control$rb_data),
        .busy(control$busy),
        .scrub_req(control$scrub_req),
        .scrub_busy(control$scrub_busy),
        .key1(control$key1),
        .stream2(control$stream2),
        .is_rb2(control$is_rb2),
        .rb_addr2(control$rb_addr2),
        .write4(control$write4),
        .wdata4(control$wdata4),
        .clear5(control$clear5),
        .counted4(control$counted4),
        .scrub4(control$scrub4),
        .ptr3(control$ptr3),
        .scrub_zero5(control$scrub_zero5),
        .scrub_finish(control$scrub_finish),
        .power_up(control$power_up),
        .sweep_en(control$sweep_en),
        .sweep_en3(control$sweep_en3),
        .sweep_addr3(control$sweep_addr3),
        .lane_tap_write_next(control$lane_tap_write_next),
        .lane_tap_wdata_next(control$lane_tap_wdata_next),
        .lane_tap_valid6(control$lane_tap_valid6),
        .lane_tap_hit6(control$lane_tap_hit6),
        .rb_select5(control$rb_select5),
        .all_bits5(control$all_bits5),
        .rb_bit5(control$rb_bit5)
    );
    bloom_core_parts_0 parts$0(
        .clock(parts$0$clock),
        .reset(parts$0$reset),
        .key1(parts$0$key1),
        .stream2(parts$0$stream2),
        .is_rb2(parts$0$is_rb2),
        .rb_addr2(parts$0$rb_addr2),
        .write4(parts$0$write4),
        .wdata4(parts$0$wdata4),
        .clear5(parts$0$clear5),
        .counted4(parts$0$counted4),
        .scrub4(parts$0$scrub4),
        .ptr3(parts$0$ptr3),
        .scrub_zero5(parts$0$scrub_zero5),
        .scrub_finish(parts$0$scrub_finish),
        .power_up(parts$0$power_up),
        .sweep_en(parts$0$sweep_en),
        .sweep_en3(parts$0$sweep_en3),
        .sweep_addr3(parts$0$sweep_addr3),
        .bit5(parts$0$bit5),
        .fill_low(parts$0$fill_low),
        .fill_high(parts$0$fill_high),
        .scrub_mismatch(parts$0$scrub_mismatch),
        .write_addr_next(parts$0$write_addr_next)
    );
    bloom_core_parts_1 parts$1(
        .clock(parts$1$clock),
        .reset(parts$1$reset),
        .key1(parts$1$key1),
        .stream2(parts$1$stream2),
        .is_rb2(parts$1$is_rb2),
        .rb_addr2(parts$1$rb_addr2),
        .write4(parts$1$write4),
        .wdata4(parts$1$wdata4),
        .clear5(parts$1$clear5),
        .counted4(parts$1$counted4),
        .scrub4(parts$1$scrub4),
        .ptr3(parts$1$ptr3),
        .scrub_zero5(parts$1$scrub_zero5),
        .scrub_finish(parts$1$scrub_finish),
        .power_up(parts$1$power_up),
        .sweep_en(parts$1$sweep_en),
        .sweep_en3(parts$1$sweep_en3),
        .sweep_addr3(parts$1$sweep_addr3),
        .bit5(parts$1$bit5),
        .fill_low(parts$1$fill_low),
        .fill_high(parts$1$fill_high),
        .scrub_mismatch(parts$1$scrub_mismatch),
        .write_addr_next(parts$1$write_addr_next)
    );
    bloom_core_parts_2 parts$2(
        .clock(parts$2$clock),
        .reset(parts$2$reset),
        .key1(parts$2$key1),
        .stream2(parts$2$stream2),
        .is_rb2(parts$2$is_rb2),
        .rb_addr2(parts$2$rb_addr2),
        .write4(parts$2$write4),
        .wdata4(parts$2$wdata4),
        .clear5(parts$2$clear5),
        .counted4(parts$2$counted4),
        .scrub4(parts$2$scrub4),
        .ptr3(parts$2$ptr3),
        .scrub_zero5(parts$2$scrub_zero5),
        .scrub_finish(parts$2$scrub_finish),
        .power_up(parts$2$power_up),
        .sweep_en(parts$2$sweep_en),
        .sweep_en3(parts$2$sweep_en3),
        .sweep_addr3(parts$2$sweep_addr3),
        .bit5(parts$2$bit5),
        .fill_low(parts$2$fill_low),
        .fill_high(parts$2$fill_high),
        .scrub_mismatch(parts$2$scrub_mismatch),
        .write_addr_next(parts$2$write_addr_next)
    );
    bloom_core_parts_3 parts$3(
        .clock(parts$3$clock),
        .reset(parts$3$reset),
        .key1(parts$3$key1),
        .stream2(parts$3$stream2),
        .is_rb2(parts$3$is_rb2),
        .rb_addr2(parts$3$rb_addr2),
        .write4(parts$3$write4),
        .wdata4(parts$3$wdata4),
        .clear5(parts$3$clear5),
        .counted4(parts$3$counted4),
        .scrub4(parts$3$scrub4),
        .ptr3(parts$3$ptr3),
        .scrub_zero5(parts$3$scrub_zero5),
        .scrub_finish(parts$3$scrub_finish),
        .power_up(parts$3$power_up),
        .sweep_en(parts$3$sweep_en),
        .sweep_en3(parts$3$sweep_en3),
        .sweep_addr3(parts$3$sweep_addr3),
        .bit5(parts$3$bit5),
        .fill_low(parts$3$fill_low),
        .fill_high(parts$3$fill_high),
        .scrub_mismatch(parts$3$scrub_mismatch),
        .write_addr_next(parts$3$write_addr_next)
    );
    
    // Update code (custom)
    wire [16:0] fill_of_0 = {parts$0$fill_high, parts$0$fill_low};
    wire [16:0] fill_of_1 = {parts$1$fill_high, parts$1$fill_low};
    wire [16:0] fill_of_2 = {parts$2$fill_high, parts$2$fill_low};
    wire [16:0] fill_of_3 = {parts$3$fill_high, parts$3$fill_low};
    (* keep *) wire [16:0] fill_pair_0 = fill_bank[0] ? fill_of_1 : fill_of_0;
    (* keep *) wire [16:0] fill_pair_1 = fill_bank[0] ? fill_of_3 : fill_of_2;
    (* keep *) wire fill_bank_low = (fill_bank[3:2] == 2'd0);
    always @(*) begin
        control$clock = clock;
        control$reset = reset;
        control$scrub_req = scrub_req;
        scrub_busy = control$scrub_busy;
        control$req_valid = req_valid;
        control$req_op = req_op;
        control$req_key = req_key;
        control$req_tag = req_tag;
        control$resp_ready = resp_ready;
        control$rb_req = rb_req;
        control$rb_bank = rb_bank;
        control$rb_addr = rb_addr;
        control$rb_write = rb_write;
        control$rb_wdata = rb_wdata;
        req_ready = control$req_ready;
        resp_valid = control$resp_valid;
        resp_hit = control$resp_hit;
        resp_tag = control$resp_tag;
        rb_valid = control$rb_valid;
        rb_data = control$rb_data;
        busy = control$busy;
        parts$0$clock = clock;
        parts$0$reset = reset;
        parts$0$key1 = control$key1;
        parts$0$stream2 = control$stream2;
        parts$0$is_rb2 = control$is_rb2;
        parts$0$rb_addr2 = control$rb_addr2;
        parts$0$write4 = control$write4;
        parts$0$wdata4 = control$wdata4;
        parts$0$clear5 = control$clear5;
        parts$0$counted4 = control$counted4;
        parts$0$scrub4 = control$scrub4;
        parts$0$ptr3 = control$ptr3;
        parts$0$scrub_zero5 = control$scrub_zero5;
        parts$0$scrub_finish = control$scrub_finish;
        parts$0$power_up = control$power_up;
        parts$0$sweep_en = control$sweep_en;
        parts$0$sweep_en3 = control$sweep_en3;
        parts$0$sweep_addr3 = control$sweep_addr3;
        parts$1$clock = clock;
        parts$1$reset = reset;
        parts$1$key1 = control$key1;
        parts$1$stream2 = control$stream2;
        parts$1$is_rb2 = control$is_rb2;
        parts$1$rb_addr2 = control$rb_addr2;
        parts$1$write4 = control$write4;
        parts$1$wdata4 = control$wdata4;
        parts$1$clear5 = control$clear5;
        parts$1$counted4 = control$counted4;
        parts$1$scrub4 = control$scrub4;
        parts$1$ptr3 = control$ptr3;
        parts$1$scrub_zero5 = control$scrub_zero5;
        parts$1$scrub_finish = control$scrub_finish;
        parts$1$power_up = control$power_up;
        parts$1$sweep_en = control$sweep_en;
        parts$1$sweep_en3 = control$sweep_en3;
        parts$1$sweep_addr3 = control$sweep_addr3;
        parts$2$clock = clock;
        parts$2$reset = reset;
        parts$2$key1 = control$key1;
        parts$2$stream2 = control$stream2;
        parts$2$is_rb2 = control$is_rb2;
        parts$2$rb_addr2 = control$rb_addr2;
        parts$2$write4 = control$write4;
        parts$2$wdata4 = control$wdata4;
        parts$2$clear5 = control$clear5;
        parts$2$counted4 = control$counted4;
        parts$2$scrub4 = control$scrub4;
        parts$2$ptr3 = control$ptr3;
        parts$2$scrub_zero5 = control$scrub_zero5;
        parts$2$scrub_finish = control$scrub_finish;
        parts$2$power_up = control$power_up;
        parts$2$sweep_en = control$sweep_en;
        parts$2$sweep_en3 = control$sweep_en3;
        parts$2$sweep_addr3 = control$sweep_addr3;
        parts$3$clock = clock;
        parts$3$reset = reset;
        parts$3$key1 = control$key1;
        parts$3$stream2 = control$stream2;
        parts$3$is_rb2 = control$is_rb2;
        parts$3$rb_addr2 = control$rb_addr2;
        parts$3$write4 = control$write4;
        parts$3$wdata4 = control$wdata4;
        parts$3$clear5 = control$clear5;
        parts$3$counted4 = control$counted4;
        parts$3$scrub4 = control$scrub4;
        parts$3$ptr3 = control$ptr3;
        parts$3$scrub_zero5 = control$scrub_zero5;
        parts$3$scrub_finish = control$scrub_finish;
        parts$3$power_up = control$power_up;
        parts$3$sweep_en = control$sweep_en;
        parts$3$sweep_en3 = control$sweep_en3;
        parts$3$sweep_addr3 = control$sweep_addr3;
        scrub_mismatch = {12'd0, parts$3$scrub_mismatch, parts$2$scrub_mismatch, parts$1$scrub_mismatch, parts$0$scrub_mismatch};
        control$all_bits5 = parts$0$bit5 & parts$1$bit5 & parts$2$bit5 & parts$3$bit5;
        control$rb_bit5 = (control$rb_select5[0] & parts$0$bit5) | (control$rb_select5[1] & parts$1$bit5) | (control$rb_select5[2] & parts$2$bit5) | (control$rb_select5[3] & parts$3$bit5);
        fill_count = {17{fill_bank_low}} & (fill_bank[1] ? fill_pair_1 : fill_pair_0);
    end
    /* verilator lint_off UNUSED */
    wire unused_rb_select = &{1'b0, control$rb_select5[15:4], 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_lane_tap = &{1'b0, control$lane_tap_write_next, control$lane_tap_wdata_next, control$lane_tap_valid6, control$lane_tap_hit6, parts$0$write_addr_next, parts$1$write_addr_next, parts$2$write_addr_next, parts$3$write_addr_next, 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core


module bloom_core_control(clock,reset,req_valid,req_ready,req_op,req_key,req_tag,resp_valid,resp_ready,resp_hit,resp_tag,rb_req,rb_bank,rb_addr,rb_write,rb_wdata,rb_valid,rb_data,busy,scrub_req,scrub_busy,key1,stream2,is_rb2,rb_addr2,write4,wdata4,clear5,counted4,scrub4,ptr3,scrub_zero5,scrub_finish,power_up,sweep_en,sweep_en3,sweep_addr3,lane_tap_write_next,lane_tap_wdata_next,lane_tap_valid6,lane_tap_hit6,rb_select5,all_bits5,rb_bit5);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  req_valid;
    output reg  req_ready;
    input wire  [1:0] req_op;
    input wire  [63:0] req_key;
    input wire  [7:0] req_tag;
    output reg  resp_valid;
    input wire  resp_ready;
    output reg  resp_hit;
    output reg  [7:0] resp_tag;
    input wire  rb_req;
    input wire  [3:0] rb_bank;
    input wire  [15:0] rb_addr;
    input wire  rb_write;
    input wire  rb_wdata;
    output reg  rb_valid;
    output reg  rb_data;
    output reg  busy;
    input wire  scrub_req;
    output reg  scrub_busy;
    output reg  [63:0] key1;
    output reg  [255:0] stream2;
    output reg  is_rb2;
    output reg  [15:0] rb_addr2;
    output reg  [15:0] write4;
    output reg  wdata4;
    output reg  clear5;
    output reg  counted4;
    output reg  scrub4;
    output reg  [16:0] ptr3;
    output reg  scrub_zero5;
    output reg  scrub_finish;
    output reg  power_up;
    output reg  sweep_en;
    output reg  sweep_en3;
    output reg  [15:0] sweep_addr3;
    output reg  [15:0] lane_tap_write_next;
    output reg  lane_tap_wdata_next;
    output reg  lane_tap_valid6;
    output reg  lane_tap_hit6;
    output reg  [15:0] rb_select5;
    input wire  all_bits5;
    input wire  rb_bit5;
    
    // Constant declarations
    localparam  op_clear = 2'b10;
    localparam  outstanding_zero = 16'h0;
    localparam  outstanding_all = 16'hffff;
    localparam  outstanding_one = 16'h1;
    localparam  outstanding_limit = 16'h200;
    localparam  outstanding_valid = 16'h3ff;
    
    // Stub signals
    reg  line$clock;
    reg  line$reset;
    reg  line$accept;
    reg  [1:0] line$op;
    reg  [7:0] line$tag;
    reg  line$rb_req;
    reg  [3:0] line$rb_bank;
    reg  [15:0] line$rb_addr;
    reg  line$rb_write;
    reg  line$rb_wdata;
    reg  line$idle;
    wire  line$accept_out;
    wire  [1:0] line$op_out;
    wire  [7:0] line$tag_out;
    wire  line$rb_req_out;
    wire  [3:0] line$rb_bank_out;
    wire  [15:0] line$rb_addr_out;
    wire  line$rb_write_out;
    wire  line$rb_wdata_out;
    wire  line$idle_out;
    wire  line$clear_ahead;
    reg  hash$clock;
    reg  [63:0] hash$key;
    wire  [255:0] hash$stream;
    reg  stages$clock;
    reg  stages$reset;
    reg  stages$accept;
    reg  [1:0] stages$op;
    reg  [7:0] stages$tag;
    reg  [63:0] stages$key;
    reg  stages$rb_req;
    reg  [3:0] stages$rb_bank;
    reg  [15:0] stages$rb_addr;
    reg  stages$rb_write;
    reg  stages$rb_wdata;
    reg  stages$idle;
    reg  stages$sweep_lead;
    reg  [15:0] stages$sweep_count;
    reg  stages$recount;
    reg  stages$scrub_take1;
    reg  [15:0] stages$scrub_addr1;
    wire  [63:0] stages$key1;
    wire  stages$is_rb2;
    wire  [15:0] stages$rb_addr2;
    wire  [15:0] stages$write4;
    wire  stages$wdata4;
    wire  [15:0] stages$write4_next;
    wire  stages$wdata4_next;
    wire  stages$clear5;
    wire  stages$valid5;
    wire  [7:0] stages$tag5;
    wire  stages$not_clear5;
    wire  stages$rb5;
    wire  [15:0] stages$rb_select5;
    reg  sweep$clock;
    reg  sweep$reset;
    reg  sweep$clear0;
    wire  sweep$idle;
    wire  sweep$lead;
    wire  [15:0] sweep$count;
    wire  sweep$sweeping;
    wire  sweep$recount;
    wire  sweep$recount3;
    reg  scrubber$clock;
    reg  scrubber$reset;
    reg  scrubber$req;
    reg  scrubber$free0;
    reg  scrubber$recount3;
    wire  scrubber$busy;
    wire  scrubber$take1;
    wire  [15:0] scrubber$addr1;
    wire  scrubber$scrub4;
    wire  scrubber$counted4;
    wire  [16:0] scrubber$ptr3;
    wire  scrubber$zero5;
    wire  scrubber$finish;
    reg  scrubber$idle;
    wire  scrubber$power_up;
    reg  [15:0] outstanding$d;
    wire  [15:0] outstanding$q;
    reg  outstanding$clock;
    reg  valid6$d;
    wire  valid6$q;
    reg  valid6$clock;
    reg  [7:0] tag6$d;
    wire  [7:0] tag6$q;
    reg  tag6$clock;
    reg  hit6$d;
    wire  hit6$q;
    reg  hit6$clock;
    reg  rb_valid6$d;
    wire  rb_valid6$q;
    reg  rb_valid6$clock;
    reg  rb_data6$d;
    wire  rb_data6$q;
    reg  rb_data6$clock;
    reg  fifo$clock;
    reg  fifo$reset;
    reg  fifo$push;
    reg  fifo$push_hit;
    reg  [7:0] fifo$push_tag;
    reg  fifo$pop;
    wire  fifo$out_valid;
    wire  fifo$out_hit;
    wire  [7:0] fifo$out_tag;
    
    // Local signals
    reg  ready;
    reg  accept;
    reg  popped;
    reg  [15:0] popped_mask;
    reg  [15:0] accept_mask;
    reg  [15:0] outstanding_if_accept;
    reg  [15:0] outstanding_if_not;
    
    // Sub module instances
    bloom_core_control_line line(
        .clock(line$clock),
        .reset(line$reset),
        .accept(line$accept),
        .op(line$op),
        .tag(line$tag),
        .rb_req(line$rb_req),
        .rb_bank(line$rb_bank),
        .rb_addr(line$rb_addr),
        .rb_write(line$rb_write),
        .rb_wdata(line$rb_wdata),
        .idle(line$idle),
        .accept_out(line$accept_out),
        .op_out(line$op_out),
        .tag_out(line$tag_out),
        .rb_req_out(line$rb_req_out),
        .rb_bank_out(line$rb_bank_out),
        .rb_addr_out(line$rb_addr_out),
        .rb_write_out(line$rb_write_out),
        .rb_wdata_out(line$rb_wdata_out),
        .idle_out(line$idle_out),
        .clear_ahead(line$clear_ahead)
    );
    bloom_core_control_hash hash(
        .clock(hash$clock),
        .key(hash$key),
        .stream(hash$stream)
    );
    bloom_core_control_stages stages(
        .clock(stages$clock),
        .reset(stages$reset),
        .accept(stages$accept),
        .op(stages$op),
        .tag(stages$tag),
        .key(stages$key),
        .rb_req(stages$rb_req),
        .rb_bank(stages$rb_bank),
        .rb_addr(stages$rb_addr),
        .rb_write(stages$rb_write),
        .rb_wdata(stages$rb_wdata),
        .idle(stages$idle),
        .sweep_lead(stages$sweep_lead),
        .sweep_count(stages$sweep_count),
        .recount(stages$recount),
        .scrub_take1(stages$scrub_take1),
        .scrub_addr1(stages$scrub_addr1),
        .key1(stages$key1),
        .is_rb2(stages$is_rb2),
        .rb_addr2(stages$rb_addr2),
        .write4(stages$write4),
        .wdata4(stages$wdata4),
        .write4_next(stages$write4_next),
        .wdata4_next(stages$wdata4_next),
        .clear5(stages$clear5),
        .valid5(stages$valid5),
        .tag5(stages$tag5),
        .not_clear5(stages$not_clear5),
        .rb5(stages$rb5),
        .rb_select5(stages$rb_select5)
    );
    bloom_core_control_sweep sweep(
        .clock(sweep$clock),
        .reset(sweep$reset),
        .clear0(sweep$clear0),
        .idle(sweep$idle),
        .lead(sweep$lead),
        .count(sweep$count),
        .sweeping(sweep$sweeping),
        .recount(sweep$recount),
        .recount3(sweep$recount3)
    );
    bloom_core_control_scrubber scrubber(
        .clock(scrubber$clock),
        .reset(scrubber$reset),
        .req(scrubber$req),
        .free0(scrubber$free0),
        .recount3(scrubber$recount3),
        .busy(scrubber$busy),
        .take1(scrubber$take1),
        .addr1(scrubber$addr1),
        .scrub4(scrubber$scrub4),
        .counted4(scrubber$counted4),
        .ptr3(scrubber$ptr3),
        .zero5(scrubber$zero5),
        .finish(scrubber$finish),
        .idle(scrubber$idle),
        .power_up(scrubber$power_up)
    );
    bloom_core_control_outstanding outstanding(
        .d(outstanding$d),
        .q(outstanding$q),
        .clock(outstanding$clock)
    );
    bloom_core_control_valid6 valid6(
        .d(valid6$d),
        .q(valid6$q),
        .clock(valid6$clock)
    );
    bloom_core_control_tag6 tag6(
        .d(tag6$d),
        .q(tag6$q),
        .clock(tag6$clock)
    );
    bloom_core_control_hit6 hit6(
        .d(hit6$d),
        .q(hit6$q),
        .clock(hit6$clock)
    );
    bloom_core_control_rb_valid6 rb_valid6(
        .d(rb_valid6$d),
        .q(rb_valid6$q),
        .clock(rb_valid6$clock)
    );
    bloom_core_control_rb_data6 rb_data6(
        .d(rb_data6$d),
        .q(rb_data6$q),
        .clock(rb_data6$clock)
    );
    bloom_core_control_fifo fifo(
        .clock(fifo$clock),
        .reset(fifo$reset),
        .push(fifo$push),
        .push_hit(fifo$push_hit),
        .push_tag(fifo$push_tag),
        .pop(fifo$pop),
        .out_valid(fifo$out_valid),
        .out_hit(fifo$out_hit),
        .out_tag(fifo$out_tag)
    );
    
    // Update code
    always @(*) begin
        outstanding$clock = clock;
        valid6$clock = clock;
        tag6$clock = clock;
        hit6$clock = clock;
        rb_valid6$clock = clock;
        rb_data6$clock = clock;
        outstanding$d = outstanding$q;
        valid6$d = valid6$q;
        tag6$d = tag6$q;
        hit6$d = hit6$q;
        rb_valid6$d = rb_valid6$q;
        rb_data6$d = rb_data6$q;
        fifo$clock = clock;
        fifo$reset = reset;
        stages$clock = clock;
        stages$reset = reset;
        sweep$clock = clock;
        sweep$reset = reset;
        scrubber$clock = clock;
        scrubber$reset = reset;
        line$clock = clock;
        line$reset = reset;
        hash$clock = clock;
        hash$key = req_key;
        busy = ~sweep$idle | line$clear_ahead;
        ready = ~rb_req & ((sweep$idle & ~line$clear_ahead) & ((outstanding$q & outstanding_limit) == outstanding_zero));
        req_ready = ready & ~reset;
        accept = req_valid & ready;
        line$accept = accept;
        line$op = req_op;
        line$tag = req_tag;
        line$rb_req = rb_req;
        line$rb_bank = rb_bank;
        line$rb_addr = rb_addr;
        line$rb_write = rb_write;
        line$rb_wdata = rb_wdata;
        line$idle = sweep$idle & ~line$clear_ahead;
        stages$accept = line$accept_out;
        stages$op = line$op_out;
        stages$tag = line$tag_out;
        stages$key = req_key;
        stages$rb_req = line$rb_req_out;
        stages$rb_bank = line$rb_bank_out;
        stages$rb_addr = line$rb_addr_out;
        stages$rb_write = line$rb_write_out;
        stages$rb_wdata = line$rb_wdata_out;
        stages$idle = line$idle_out;
        stages$sweep_lead = sweep$lead;
        stages$sweep_count = sweep$count;
        stages$recount = sweep$recount;
        sweep$clear0 = line$accept_out & (line$op_out == op_clear);
        scrubber$req = scrub_req;
        scrubber$free0 = (~line$rb_req_out & ~line$accept_out) & sweep$idle;
        scrubber$recount3 = sweep$recount3;
        scrubber$idle = sweep$idle;
        scrub_busy = scrubber$busy;
        stages$scrub_take1 = scrubber$take1;
        stages$scrub_addr1 = scrubber$addr1;
        key1 = stages$key1;
        stream2 = hash$stream;
        is_rb2 = stages$is_rb2;
        rb_addr2 = stages$rb_addr2;
        write4 = stages$write4;
        wdata4 = stages$wdata4;
        clear5 = stages$clear5;
        counted4 = scrubber$counted4;
        scrub4 = scrubber$scrub4;
        ptr3 = scrubber$ptr3;
        scrub_zero5 = scrubber$zero5;
        scrub_finish = scrubber$finish;
        power_up = scrubber$power_up;
        sweep_en = sweep$sweeping;
        sweep_en3 = sweep$lead;
        sweep_addr3 = sweep$count;
        rb_select5 = stages$rb_select5;
        lane_tap_write_next = stages$write4_next;
        lane_tap_wdata_next = stages$wdata4_next;
        lane_tap_valid6 = valid6$q;
        lane_tap_hit6 = hit6$q;
        valid6$d = stages$valid5;
        tag6$d = stages$tag5;
        hit6$d = all_bits5 & stages$not_clear5;
        fifo$push = valid6$q;
        fifo$push_hit = hit6$q;
        fifo$push_tag = tag6$q;
        fifo$pop = resp_ready;
        resp_valid = fifo$out_valid;
        resp_hit = fifo$out_hit;
        resp_tag = fifo$out_tag;
        popped = fifo$out_valid & resp_ready;
        if (popped) begin
            popped_mask = outstanding_all;
        end
        else begin
            popped_mask = outstanding_zero;
        end
        if (accept) begin
            accept_mask = outstanding_all;
        end
        else begin
            accept_mask = outstanding_zero;
        end
        outstanding_if_accept = (outstanding$q & popped_mask) | (((outstanding$q << outstanding_one) | outstanding_one) & ~popped_mask);
        outstanding_if_not = ((outstanding$q >> outstanding_one) & popped_mask) | (outstanding$q & ~popped_mask);
        outstanding$d = ((outstanding_if_accept & accept_mask) | (outstanding_if_not & ~accept_mask)) & outstanding_valid;
        rb_valid6$d = stages$rb5;
        rb_data6$d = rb_bit5;
        rb_valid = rb_valid6$q;
        rb_data = rb_data6$q;
        if (reset) begin
            valid6$d = 1'b0;
            rb_valid6$d = 1'b0;
            outstanding$d = outstanding_zero;
        end
    end
    
endmodule // bloom_core_control


(* keep_hierarchy *)
module bloom_core_control_fifo(clock,reset,push,push_hit,push_tag,pop,out_valid,out_hit,out_tag);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  push;
    input wire  push_hit;
    input wire  [7:0] push_tag;
    input wire  pop;
    output reg  out_valid;
    output reg  out_hit;
    output reg  [7:0] out_tag;
    
    // Update code (custom)
    reg [8:0] entry_0;
    reg [8:0] entry_1;
    reg [8:0] entry_2;
    reg [8:0] entry_3;
    reg [8:0] entry_4;
    reg [8:0] entry_5;
    reg [8:0] entry_6;
    reg [8:0] entry_7;
    reg [8:0] entry_8;
    reg [8:0] entry_9;
    reg [10:0] count_at;
    reg occupied;
    wire popped = pop & occupied;
    wire [8:0] pushed = {push_hit, push_tag};
    wire grow = push & ~popped;
    wire shrink = popped & ~push;
    wire [8:0] after_pop_0 = (push & count_at[1]) ? pushed : entry_1;
    wire [8:0] kept_0 = (push & count_at[0]) ? pushed : entry_0;
    wire [8:0] after_pop_1 = (push & count_at[2]) ? pushed : entry_2;
    wire [8:0] kept_1 = (push & count_at[1]) ? pushed : entry_1;
    wire [8:0] after_pop_2 = (push & count_at[3]) ? pushed : entry_3;
    wire [8:0] kept_2 = (push & count_at[2]) ? pushed : entry_2;
    wire [8:0] after_pop_3 = (push & count_at[4]) ? pushed : entry_4;
    wire [8:0] kept_3 = (push & count_at[3]) ? pushed : entry_3;
    wire [8:0] after_pop_4 = (push & count_at[5]) ? pushed : entry_5;
    wire [8:0] kept_4 = (push & count_at[4]) ? pushed : entry_4;
    wire [8:0] after_pop_5 = (push & count_at[6]) ? pushed : entry_6;
    wire [8:0] kept_5 = (push & count_at[5]) ? pushed : entry_5;
    wire [8:0] after_pop_6 = (push & count_at[7]) ? pushed : entry_7;
    wire [8:0] kept_6 = (push & count_at[6]) ? pushed : entry_6;
    wire [8:0] after_pop_7 = (push & count_at[8]) ? pushed : entry_8;
    wire [8:0] kept_7 = (push & count_at[7]) ? pushed : entry_7;
    wire [8:0] after_pop_8 = (push & count_at[9]) ? pushed : entry_9;
    wire [8:0] kept_8 = (push & count_at[8]) ? pushed : entry_8;
    wire [8:0] after_pop_9 = (push & count_at[10]) ? pushed : 9'd0;
    wire [8:0] kept_9 = (push & count_at[9]) ? pushed : entry_9;
    always @(posedge clock) begin
        entry_0 <= popped ? after_pop_0 : kept_0;
        entry_1 <= popped ? after_pop_1 : kept_1;
        entry_2 <= popped ? after_pop_2 : kept_2;
        entry_3 <= popped ? after_pop_3 : kept_3;
        entry_4 <= popped ? after_pop_4 : kept_4;
        entry_5 <= popped ? after_pop_5 : kept_5;
        entry_6 <= popped ? after_pop_6 : kept_6;
        entry_7 <= popped ? after_pop_7 : kept_7;
        entry_8 <= popped ? after_pop_8 : kept_8;
        entry_9 <= popped ? after_pop_9 : kept_9;
        if (reset) begin
            count_at <= {10'd0, 1'b1};
            occupied <= 1'b0;
        end else begin
            count_at <= ({count_at[9:0], 1'b0} & {11{grow}})
                | ({1'b0, count_at[10:1]} & {11{shrink}})
                | (count_at & {11{~(grow | shrink)}});
            occupied <= push | (occupied & ~(pop & count_at[1]));
        end
    end
    always @(*) begin
        out_valid = occupied;
        {out_hit, out_tag} = entry_0;
    end
endmodule // bloom_core_control_fifo


(* keep_hierarchy *)
module bloom_core_control_hash(clock,key,stream);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    output reg  [255:0] stream;
    
    // Update code (custom)
    wire [31:0] x0_0 = key[31:0];
    wire [31:0] x1_0 = key[63:32];
    (* keep *) wire [31:0] x2_0_w = {~(x0_0[31] ^ (x1_0[31] ^ (~x1_0[4] & x1_0[13]))),
        ~(x0_0[30] ^ (~x1_0[30] ^ (x1_0[3] & x1_0[12]))),
        ~(x0_0[29] ^ (~x1_0[29] ^ (x1_0[2] & ~x1_0[11]))),
        (x0_0[28] ^ (~x1_0[28] ^ (x1_0[1] & ~x1_0[10]))),
        (x0_0[27] ^ (~x1_0[27] ^ (x1_0[0] & x1_0[9]))),
        (x0_0[26] ^ (x1_0[26] ^ (~x1_0[31] & ~x1_0[8]))),
        ~(x0_0[25] ^ (~x1_0[25] ^ (x1_0[30] & ~x1_0[7]))),
        (x0_0[24] ^ (~x1_0[24] ^ (x1_0[29] & x1_0[6]))),
        (x0_0[23] ^ (x1_0[23] ^ (x1_0[28] & ~x1_0[5]))),
        (x0_0[22] ^ (x1_0[22] ^ (x1_0[27] & x1_0[4]))),
        ~(x0_0[21] ^ (x1_0[21] ^ (~x1_0[26] & ~x1_0[3]))),
        (x0_0[20] ^ (~x1_0[20] ^ (x1_0[25] & ~x1_0[2]))),
        (x0_0[19] ^ (~x1_0[19] ^ (x1_0[24] & ~x1_0[1]))),
        (x0_0[18] ^ (~x1_0[18] ^ (~x1_0[23] & ~x1_0[0]))),
        (x0_0[17] ^ (x1_0[17] ^ (~x1_0[22] & x1_0[31]))),
        (x0_0[16] ^ (~x1_0[16] ^ (~x1_0[21] & ~x1_0[30]))),
        ~(x0_0[15] ^ (~x1_0[15] ^ (x1_0[20] & ~x1_0[29]))),
        (x0_0[14] ^ (~x1_0[14] ^ (x1_0[19] & ~x1_0[28]))),
        ~(x0_0[13] ^ (x1_0[13] ^ (x1_0[18] & ~x1_0[27]))),
        (x0_0[12] ^ (x1_0[12] ^ (~x1_0[17] & x1_0[26]))),
        ~(x0_0[11] ^ (~x1_0[11] ^ (x1_0[16] & ~x1_0[25]))),
        (x0_0[10] ^ (~x1_0[10] ^ (x1_0[15] & ~x1_0[24]))),
        (x0_0[9] ^ (x1_0[9] ^ (x1_0[14] & x1_0[23]))),
        (x0_0[8] ^ (~x1_0[8] ^ (~x1_0[13] & x1_0[22]))),
        (x0_0[7] ^ (~x1_0[7] ^ (~x1_0[12] & x1_0[21]))),
        (x0_0[6] ^ (x1_0[6] ^ (x1_0[11] & ~x1_0[20]))),
        ~(x0_0[5] ^ (~x1_0[5] ^ (x1_0[10] & ~x1_0[19]))),
        ~(x0_0[4] ^ (x1_0[4] ^ (~x1_0[9] & ~x1_0[18]))),
        ~(x0_0[3] ^ (~x1_0[3] ^ (x1_0[8] & x1_0[17]))),
        (x0_0[2] ^ (~x1_0[2] ^ (x1_0[7] & ~x1_0[16]))),
        (x0_0[1] ^ (~x1_0[1] ^ (~x1_0[6] & ~x1_0[15]))),
        ~(x0_0[0] ^ (~x1_0[0] ^ (x1_0[5] & ~x1_0[14])))};
    reg [31:0] x2_0;
    wire [31:0] x3_0_w = {(x1_0[31] ^ (~x2_0_w[10] ^ (x2_0_w[23] & x2_0_w[25]))),
        ~(x1_0[30] ^ (x2_0_w[9] ^ (~x2_0_w[22] & ~x2_0_w[24]))),
        ~(x1_0[29] ^ (~x2_0_w[8] ^ (x2_0_w[21] & ~x2_0_w[23]))),
        (x1_0[28] ^ (~x2_0_w[7] ^ (x2_0_w[20] & x2_0_w[22]))),
        ~(x1_0[27] ^ (~x2_0_w[6] ^ (x2_0_w[19] & ~x2_0_w[21]))),
        ~(x1_0[26] ^ (~x2_0_w[5] ^ (~x2_0_w[18] & ~x2_0_w[20]))),
        ~(x1_0[25] ^ (~x2_0_w[4] ^ (~x2_0_w[17] & ~x2_0_w[19]))),
        (x1_0[24] ^ (x2_0_w[3] ^ (x2_0_w[16] & x2_0_w[18]))),
        (x1_0[23] ^ (~x2_0_w[2] ^ (~x2_0_w[15] & x2_0_w[17]))),
        ~(x1_0[22] ^ (x2_0_w[1] ^ (x2_0_w[14] & ~x2_0_w[16]))),
        ~(x1_0[21] ^ (x2_0_w[0] ^ (x2_0_w[13] & x2_0_w[15]))),
        ~(x1_0[20] ^ (~x2_0_w[31] ^ (~x2_0_w[12] & ~x2_0_w[14]))),
        ~(x1_0[19] ^ (x2_0_w[30] ^ (~x2_0_w[11] & ~x2_0_w[13]))),
        (x1_0[18] ^ (~x2_0_w[29] ^ (x2_0_w[10] & x2_0_w[12]))),
        (x1_0[17] ^ (x2_0_w[28] ^ (~x2_0_w[9] & x2_0_w[11]))),
        (x1_0[16] ^ (x2_0_w[27] ^ (x2_0_w[8] & ~x2_0_w[10]))),
        ~(x1_0[15] ^ (x2_0_w[26] ^ (x2_0_w[7] & x2_0_w[9]))),
        (x1_0[14] ^ (x2_0_w[25] ^ (x2_0_w[6] & ~x2_0_w[8]))),
        (x1_0[13] ^ (~x2_0_w[24] ^ (x2_0_w[5] & ~x2_0_w[7]))),
        ~(x1_0[12] ^ (~x2_0_w[23] ^ (x2_0_w[4] & ~x2_0_w[6]))),
        ~(x1_0[11] ^ (x2_0_w[22] ^ (~x2_0_w[3] & ~x2_0_w[5]))),
        ~(x1_0[10] ^ (~x2_0_w[21] ^ (x2_0_w[2] & ~x2_0_w[4]))),
        ~(x1_0[9] ^ (~x2_0_w[20] ^ (~x2_0_w[1] & x2_0_w[3]))),
        (x1_0[8] ^ (~x2_0_w[19] ^ (~x2_0_w[0] & ~x2_0_w[2]))),
        (x1_0[7] ^ (x2_0_w[18] ^ (x2_0_w[31] & x2_0_w[1]))),
        ~(x1_0[6] ^ (x2_0_w[17] ^ (~x2_0_w[30] & x2_0_w[0]))),
        ~(x1_0[5] ^ (~x2_0_w[16] ^ (x2_0_w[29] & ~x2_0_w[31]))),
        (x1_0[4] ^ (x2_0_w[15] ^ (~x2_0_w[28] & x2_0_w[30]))),
        ~(x1_0[3] ^ (~x2_0_w[14] ^ (~x2_0_w[27] & ~x2_0_w[29]))),
        (x1_0[2] ^ (~x2_0_w[13] ^ (~x2_0_w[26] & x2_0_w[28]))),
        ~(x1_0[1] ^ (x2_0_w[12] ^ (~x2_0_w[25] & x2_0_w[27]))),
        (x1_0[0] ^ (x2_0_w[11] ^ (x2_0_w[24] & x2_0_w[26])))};
    reg [31:0] x3_0;
    (* keep *) wire [31:0] x4_0_w = {(x2_0[31] ^ (~x3_0[31] ^ (~x3_0[4] & x3_0[13]))),
        (x2_0[30] ^ (x3_0[30] ^ (x3_0[3] & x3_0[12]))),
        (x2_0[29] ^ (x3_0[29] ^ (x3_0[2] & x3_0[11]))),
        (x2_0[28] ^ (x3_0[28] ^ (x3_0[1] & ~x3_0[10]))),
        (x2_0[27] ^ (x3_0[27] ^ (x3_0[0] & x3_0[9]))),
        ~(x2_0[26] ^ (x3_0[26] ^ (x3_0[31] & ~x3_0[8]))),
        ~(x2_0[25] ^ (x3_0[25] ^ (~x3_0[30] & x3_0[7]))),
        (x2_0[24] ^ (x3_0[24] ^ (~x3_0[29] & ~x3_0[6]))),
        ~(x2_0[23] ^ (x3_0[23] ^ (~x3_0[28] & x3_0[5]))),
        ~(x2_0[22] ^ (x3_0[22] ^ (~x3_0[27] & x3_0[4]))),
        (x2_0[21] ^ (x3_0[21] ^ (~x3_0[26] & ~x3_0[3]))),
        (x2_0[20] ^ (x3_0[20] ^ (~x3_0[25] & ~x3_0[2]))),
        (x2_0[19] ^ (~x3_0[19] ^ (~x3_0[24] & ~x3_0[1]))),
        ~(x2_0[18] ^ (x3_0[18] ^ (~x3_0[23] & ~x3_0[0]))),
        (x2_0[17] ^ (x3_0[17] ^ (~x3_0[22] & ~x3_0[31]))),
        (x2_0[16] ^ (~x3_0[16] ^ (~x3_0[21] & x3_0[30]))),
        (x2_0[15] ^ (x3_0[15] ^ (~x3_0[20] & x3_0[29]))),
        ~(x2_0[14] ^ (~x3_0[14] ^ (x3_0[19] & x3_0[28]))),
        (x2_0[13] ^ (x3_0[13] ^ (~x3_0[18] & x3_0[27]))),
        ~(x2_0[12] ^ (x3_0[12] ^ (~x3_0[17] & x3_0[26]))),
        ~(x2_0[11] ^ (x3_0[11] ^ (x3_0[16] & x3_0[25]))),
        ~(x2_0[10] ^ (~x3_0[10] ^ (~x3_0[15] & x3_0[24]))),
        (x2_0[9] ^ (x3_0[9] ^ (x3_0[14] & x3_0[23]))),
        ~(x2_0[8] ^ (~x3_0[8] ^ (~x3_0[13] & x3_0[22]))),
        (x2_0[7] ^ (x3_0[7] ^ (~x3_0[12] & x3_0[21]))),
        (x2_0[6] ^ (~x3_0[6] ^ (~x3_0[11] & x3_0[20]))),
        (x2_0[5] ^ (x3_0[5] ^ (x3_0[10] & ~x3_0[19]))),
        ~(x2_0[4] ^ (x3_0[4] ^ (~x3_0[9] & x3_0[18]))),
        ~(x2_0[3] ^ (~x3_0[3] ^ (x3_0[8] & x3_0[17]))),
        (x2_0[2] ^ (~x3_0[2] ^ (~x3_0[7] & ~x3_0[16]))),
        (x2_0[1] ^ (~x3_0[1] ^ (x3_0[6] & x3_0[15]))),
        (x2_0[0] ^ (~x3_0[0] ^ (~x3_0[5] & ~x3_0[14])))};
    reg [31:0] x4_0;
    wire [31:0] x5_0_w = {~(x3_0[31] ^ (x4_0_w[10] ^ (~x4_0_w[23] & ~x4_0_w[25]))),
        ~(x3_0[30] ^ (x4_0_w[9] ^ (x4_0_w[22] & x4_0_w[24]))),
        ~(x3_0[29] ^ (~x4_0_w[8] ^ (~x4_0_w[21] & x4_0_w[23]))),
        ~(x3_0[28] ^ (~x4_0_w[7] ^ (~x4_0_w[20] & ~x4_0_w[22]))),
        ~(x3_0[27] ^ (~x4_0_w[6] ^ (x4_0_w[19] & x4_0_w[21]))),
        (x3_0[26] ^ (~x4_0_w[5] ^ (x4_0_w[18] & x4_0_w[20]))),
        (x3_0[25] ^ (x4_0_w[4] ^ (~x4_0_w[17] & ~x4_0_w[19]))),
        (x3_0[24] ^ (~x4_0_w[3] ^ (~x4_0_w[16] & ~x4_0_w[18]))),
        ~(x3_0[23] ^ (~x4_0_w[2] ^ (x4_0_w[15] & x4_0_w[17]))),
        (x3_0[22] ^ (x4_0_w[1] ^ (~x4_0_w[14] & x4_0_w[16]))),
        (x3_0[21] ^ (x4_0_w[0] ^ (~x4_0_w[13] & ~x4_0_w[15]))),
        (x3_0[20] ^ (x4_0_w[31] ^ (~x4_0_w[12] & x4_0_w[14]))),
        ~(x3_0[19] ^ (~x4_0_w[30] ^ (~x4_0_w[11] & x4_0_w[13]))),
        (x3_0[18] ^ (~x4_0_w[29] ^ (~x4_0_w[10] & x4_0_w[12]))),
        ~(x3_0[17] ^ (~x4_0_w[28] ^ (~x4_0_w[9] & x4_0_w[11]))),
        ~(x3_0[16] ^ (x4_0_w[27] ^ (x4_0_w[8] & x4_0_w[10]))),
        ~(x3_0[15] ^ (x4_0_w[26] ^ (x4_0_w[7] & x4_0_w[9]))),
        (x3_0[14] ^ (~x4_0_w[25] ^ (x4_0_w[6] & ~x4_0_w[8]))),
        ~(x3_0[13] ^ (x4_0_w[24] ^ (x4_0_w[5] & ~x4_0_w[7]))),
        ~(x3_0[12] ^ (x4_0_w[23] ^ (~x4_0_w[4] & ~x4_0_w[6]))),
        ~(x3_0[11] ^ (~x4_0_w[22] ^ (x4_0_w[3] & ~x4_0_w[5]))),
        (x3_0[10] ^ (x4_0_w[21] ^ (x4_0_w[2] & x4_0_w[4]))),
        (x3_0[9] ^ (x4_0_w[20] ^ (~x4_0_w[1] & ~x4_0_w[3]))),
        (x3_0[8] ^ (~x4_0_w[19] ^ (~x4_0_w[0] & ~x4_0_w[2]))),
        ~(x3_0[7] ^ (~x4_0_w[18] ^ (~x4_0_w[31] & x4_0_w[1]))),
        (x3_0[6] ^ (x4_0_w[17] ^ (x4_0_w[30] & x4_0_w[0]))),
        ~(x3_0[5] ^ (x4_0_w[16] ^ (x4_0_w[29] & x4_0_w[31]))),
        (x3_0[4] ^ (~x4_0_w[15] ^ (x4_0_w[28] & ~x4_0_w[30]))),
        ~(x3_0[3] ^ (x4_0_w[14] ^ (~x4_0_w[27] & ~x4_0_w[29]))),
        (x3_0[2] ^ (x4_0_w[13] ^ (~x4_0_w[26] & ~x4_0_w[28]))),
        (x3_0[1] ^ (x4_0_w[12] ^ (x4_0_w[25] & x4_0_w[27]))),
        (x3_0[0] ^ (x4_0_w[11] ^ (~x4_0_w[24] & x4_0_w[26])))};
    reg [31:0] x5_0;
    (* keep *) wire [31:0] x6_0_w = {(x4_0[31] ^ (x5_0[31] ^ (x5_0[4] & ~x5_0[13]))),
        (x4_0[30] ^ (~x5_0[30] ^ (x5_0[3] & ~x5_0[12]))),
        (x4_0[29] ^ (x5_0[29] ^ (~x5_0[2] & x5_0[11]))),
        ~(x4_0[28] ^ (~x5_0[28] ^ (x5_0[1] & ~x5_0[10]))),
        ~(x4_0[27] ^ (x5_0[27] ^ (x5_0[0] & x5_0[9]))),
        (x4_0[26] ^ (x5_0[26] ^ (~x5_0[31] & x5_0[8]))),
        ~(x4_0[25] ^ (x5_0[25] ^ (x5_0[30] & ~x5_0[7]))),
        ~(x4_0[24] ^ (~x5_0[24] ^ (~x5_0[29] & x5_0[6]))),
        (x4_0[23] ^ (~x5_0[23] ^ (x5_0[28] & x5_0[5]))),
        (x4_0[22] ^ (x5_0[22] ^ (~x5_0[27] & ~x5_0[4]))),
        ~(x4_0[21] ^ (~x5_0[21] ^ (~x5_0[26] & ~x5_0[3]))),
        ~(x4_0[20] ^ (x5_0[20] ^ (~x5_0[25] & x5_0[2]))),
        ~(x4_0[19] ^ (~x5_0[19] ^ (x5_0[24] & ~x5_0[1]))),
        (x4_0[18] ^ (x5_0[18] ^ (x5_0[23] & ~x5_0[0]))),
        (x4_0[17] ^ (x5_0[17] ^ (~x5_0[22] & x5_0[31]))),
        ~(x4_0[16] ^ (x5_0[16] ^ (x5_0[21] & ~x5_0[30]))),
        ~(x4_0[15] ^ (x5_0[15] ^ (~x5_0[20] & x5_0[29]))),
        (x4_0[14] ^ (~x5_0[14] ^ (x5_0[19] & ~x5_0[28]))),
        (x4_0[13] ^ (~x5_0[13] ^ (~x5_0[18] & x5_0[27]))),
        (x4_0[12] ^ (~x5_0[12] ^ (~x5_0[17] & x5_0[26]))),
        ~(x4_0[11] ^ (x5_0[11] ^ (~x5_0[16] & x5_0[25]))),
        (x4_0[10] ^ (~x5_0[10] ^ (~x5_0[15] & ~x5_0[24]))),
        (x4_0[9] ^ (x5_0[9] ^ (x5_0[14] & ~x5_0[23]))),
        ~(x4_0[8] ^ (x5_0[8] ^ (x5_0[13] & x5_0[22]))),
        (x4_0[7] ^ (~x5_0[7] ^ (x5_0[12] & ~x5_0[21]))),
        ~(x4_0[6] ^ (x5_0[6] ^ (~x5_0[11] & x5_0[20]))),
        ~(x4_0[5] ^ (x5_0[5] ^ (x5_0[10] & ~x5_0[19]))),
        (x4_0[4] ^ (~x5_0[4] ^ (~x5_0[9] & x5_0[18]))),
        ~(x4_0[3] ^ (~x5_0[3] ^ (~x5_0[8] & x5_0[17]))),
        (x4_0[2] ^ (x5_0[2] ^ (x5_0[7] & x5_0[16]))),
        ~(x4_0[1] ^ (~x5_0[1] ^ (~x5_0[6] & x5_0[15]))),
        (x4_0[0] ^ (~x5_0[0] ^ (~x5_0[5] & ~x5_0[14])))};
    reg [31:0] x6_0;
    wire [31:0] x7_0_w = {(x5_0[31] ^ (x6_0_w[10] ^ (~x6_0_w[23] & x6_0_w[25]))),
        ~(x5_0[30] ^ (~x6_0_w[9] ^ (x6_0_w[22] & x6_0_w[24]))),
        (x5_0[29] ^ (x6_0_w[8] ^ (x6_0_w[21] & x6_0_w[23]))),
        ~(x5_0[28] ^ (~x6_0_w[7] ^ (x6_0_w[20] & ~x6_0_w[22]))),
        (x5_0[27] ^ (~x6_0_w[6] ^ (x6_0_w[19] & ~x6_0_w[21]))),
        (x5_0[26] ^ (~x6_0_w[5] ^ (x6_0_w[18] & ~x6_0_w[20]))),
        ~(x5_0[25] ^ (x6_0_w[4] ^ (x6_0_w[17] & ~x6_0_w[19]))),
        ~(x5_0[24] ^ (~x6_0_w[3] ^ (~x6_0_w[16] & ~x6_0_w[18]))),
        ~(x5_0[23] ^ (x6_0_w[2] ^ (x6_0_w[15] & ~x6_0_w[17]))),
        ~(x5_0[22] ^ (~x6_0_w[1] ^ (~x6_0_w[14] & x6_0_w[16]))),
        (x5_0[21] ^ (x6_0_w[0] ^ (x6_0_w[13] & ~x6_0_w[15]))),
        (x5_0[20] ^ (x6_0_w[31] ^ (~x6_0_w[12] & x6_0_w[14]))),
        ~(x5_0[19] ^ (~x6_0_w[30] ^ (~x6_0_w[11] & ~x6_0_w[13]))),
        (x5_0[18] ^ (~x6_0_w[29] ^ (~x6_0_w[10] & x6_0_w[12]))),
        ~(x5_0[17] ^ (~x6_0_w[28] ^ (x6_0_w[9] & x6_0_w[11]))),
        ~(x5_0[16] ^ (x6_0_w[27] ^ (~x6_0_w[8] & x6_0_w[10]))),
        ~(x5_0[15] ^ (~x6_0_w[26] ^ (x6_0_w[7] & ~x6_0_w[9]))),
        (x5_0[14] ^ (x6_0_w[25] ^ (x6_0_w[6] & x6_0_w[8]))),
        (x5_0[13] ^ (x6_0_w[24] ^ (x6_0_w[5] & ~x6_0_w[7]))),
        ~(x5_0[12] ^ (x6_0_w[23] ^ (~x6_0_w[4] & ~x6_0_w[6]))),
        ~(x5_0[11] ^ (~x6_0_w[22] ^ (x6_0_w[3] & ~x6_0_w[5]))),
        ~(x5_0[10] ^ (~x6_0_w[21] ^ (~x6_0_w[2] & x6_0_w[4]))),
        ~(x5_0[9] ^ (~x6_0_w[20] ^ (x6_0_w[1] & ~x6_0_w[3]))),
        ~(x5_0[8] ^ (~x6_0_w[19] ^ (~x6_0_w[0] & x6_0_w[2]))),
        (x5_0[7] ^ (~x6_0_w[18] ^ (~x6_0_w[31] & ~x6_0_w[1]))),
        (x5_0[6] ^ (~x6_0_w[17] ^ (x6_0_w[30] & x6_0_w[0]))),
        (x5_0[5] ^ (x6_0_w[16] ^ (x6_0_w[29] & x6_0_w[31]))),
        (x5_0[4] ^ (~x6_0_w[15] ^ (x6_0_w[28] & ~x6_0_w[30]))),
        ~(x5_0[3] ^ (x6_0_w[14] ^ (~x6_0_w[27] & ~x6_0_w[29]))),
        ~(x5_0[2] ^ (~x6_0_w[13] ^ (x6_0_w[26] & ~x6_0_w[28]))),
        (x5_0[1] ^ (x6_0_w[12] ^ (~x6_0_w[25] & x6_0_w[27]))),
        (x5_0[0] ^ (x6_0_w[11] ^ (~x6_0_w[24] & ~x6_0_w[26])))};
    reg [31:0] x7_0;
    (* keep *) wire [31:0] x8_0_w = {(x6_0[31] ^ (x7_0[31] ^ (~x7_0[4] & ~x7_0[13]))),
        (x6_0[30] ^ (x7_0[30] ^ (~x7_0[3] & ~x7_0[12]))),
        ~(x6_0[29] ^ (x7_0[29] ^ (~x7_0[2] & x7_0[11]))),
        (x6_0[28] ^ (~x7_0[28] ^ (~x7_0[1] & x7_0[10]))),
        ~(x6_0[27] ^ (~x7_0[27] ^ (x7_0[0] & ~x7_0[9]))),
        ~(x6_0[26] ^ (~x7_0[26] ^ (~x7_0[31] & x7_0[8]))),
        (x6_0[25] ^ (~x7_0[25] ^ (~x7_0[30] & ~x7_0[7]))),
        (x6_0[24] ^ (~x7_0[24] ^ (~x7_0[29] & ~x7_0[6]))),
        ~(x6_0[23] ^ (x7_0[23] ^ (x7_0[28] & ~x7_0[5]))),
        (x6_0[22] ^ (~x7_0[22] ^ (x7_0[27] & x7_0[4]))),
        (x6_0[21] ^ (x7_0[21] ^ (x7_0[26] & x7_0[3]))),
        (x6_0[20] ^ (x7_0[20] ^ (x7_0[25] & x7_0[2]))),
        (x6_0[19] ^ (x7_0[19] ^ (x7_0[24] & x7_0[1]))),
        (x6_0[18] ^ (~x7_0[18] ^ (~x7_0[23] & ~x7_0[0]))),
        ~(x6_0[17] ^ (x7_0[17] ^ (x7_0[22] & x7_0[31]))),
        (x6_0[16] ^ (~x7_0[16] ^ (~x7_0[21] & x7_0[30]))),
        ~(x6_0[15] ^ (x7_0[15] ^ (~x7_0[20] & x7_0[29]))),
        (x6_0[14] ^ (x7_0[14] ^ (~x7_0[19] & ~x7_0[28]))),
        (x6_0[13] ^ (~x7_0[13] ^ (x7_0[18] & ~x7_0[27]))),
        ~(x6_0[12] ^ (~x7_0[12] ^ (~x7_0[17] & ~x7_0[26]))),
        ~(x6_0[11] ^ (x7_0[11] ^ (x7_0[16] & ~x7_0[25]))),
        (x6_0[10] ^ (x7_0[10] ^ (~x7_0[15] & ~x7_0[24]))),
        ~(x6_0[9] ^ (~x7_0[9] ^ (~x7_0[14] & x7_0[23]))),
        (x6_0[8] ^ (x7_0[8] ^ (x7_0[13] & ~x7_0[22]))),
        ~(x6_0[7] ^ (~x7_0[7] ^ (x7_0[12] & x7_0[21]))),
        (x6_0[6] ^ (~x7_0[6] ^ (~x7_0[11] & x7_0[20]))),
        ~(x6_0[5] ^ (~x7_0[5] ^ (~x7_0[10] & x7_0[19]))),
        ~(x6_0[4] ^ (x7_0[4] ^ (x7_0[9] & ~x7_0[18]))),
        ~(x6_0[3] ^ (x7_0[3] ^ (~x7_0[8] & x7_0[17]))),
        ~(x6_0[2] ^ (x7_0[2] ^ (x7_0[7] & ~x7_0[16]))),
        ~(x6_0[1] ^ (x7_0[1] ^ (x7_0[6] & x7_0[15]))),
        (x6_0[0] ^ (~x7_0[0] ^ (x7_0[5] & x7_0[14])))};
    reg [31:0] x8_0;
    wire [31:0] x9_0_w = {~(x7_0[31] ^ (x8_0_w[10] ^ (~x8_0_w[23] & x8_0_w[25]))),
        ~(x7_0[30] ^ (~x8_0_w[9] ^ (~x8_0_w[22] & ~x8_0_w[24]))),
        (x7_0[29] ^ (~x8_0_w[8] ^ (~x8_0_w[21] & x8_0_w[23]))),
        (x7_0[28] ^ (x8_0_w[7] ^ (x8_0_w[20] & x8_0_w[22]))),
        (x7_0[27] ^ (x8_0_w[6] ^ (~x8_0_w[19] & x8_0_w[21]))),
        ~(x7_0[26] ^ (~x8_0_w[5] ^ (x8_0_w[18] & ~x8_0_w[20]))),
        (x7_0[25] ^ (~x8_0_w[4] ^ (x8_0_w[17] & x8_0_w[19]))),
        ~(x7_0[24] ^ (~x8_0_w[3] ^ (~x8_0_w[16] & ~x8_0_w[18]))),
        ~(x7_0[23] ^ (~x8_0_w[2] ^ (x8_0_w[15] & ~x8_0_w[17]))),
        (x7_0[22] ^ (x8_0_w[1] ^ (~x8_0_w[14] & x8_0_w[16]))),
        (x7_0[21] ^ (x8_0_w[0] ^ (x8_0_w[13] & ~x8_0_w[15]))),
        (x7_0[20] ^ (~x8_0_w[31] ^ (~x8_0_w[12] & x8_0_w[14]))),
        (x7_0[19] ^ (~x8_0_w[30] ^ (x8_0_w[11] & ~x8_0_w[13]))),
        ~(x7_0[18] ^ (x8_0_w[29] ^ (~x8_0_w[10] & x8_0_w[12]))),
        (x7_0[17] ^ (x8_0_w[28] ^ (x8_0_w[9] & ~x8_0_w[11]))),
        (x7_0[16] ^ (~x8_0_w[27] ^ (x8_0_w[8] & x8_0_w[10]))),
        (x7_0[15] ^ (x8_0_w[26] ^ (~x8_0_w[7] & ~x8_0_w[9]))),
        (x7_0[14] ^ (x8_0_w[25] ^ (~x8_0_w[6] & ~x8_0_w[8]))),
        (x7_0[13] ^ (~x8_0_w[24] ^ (x8_0_w[5] & x8_0_w[7]))),
        ~(x7_0[12] ^ (x8_0_w[23] ^ (x8_0_w[4] & x8_0_w[6]))),
        (x7_0[11] ^ (x8_0_w[22] ^ (x8_0_w[3] & ~x8_0_w[5]))),
        (x7_0[10] ^ (x8_0_w[21] ^ (x8_0_w[2] & ~x8_0_w[4]))),
        ~(x7_0[9] ^ (~x8_0_w[20] ^ (~x8_0_w[1] & ~x8_0_w[3]))),
        ~(x7_0[8] ^ (x8_0_w[19] ^ (~x8_0_w[0] & ~x8_0_w[2]))),
        (x7_0[7] ^ (~x8_0_w[18] ^ (x8_0_w[31] & x8_0_w[1]))),
        (x7_0[6] ^ (~x8_0_w[17] ^ (x8_0_w[30] & x8_0_w[0]))),
        ~(x7_0[5] ^ (x8_0_w[16] ^ (~x8_0_w[29] & ~x8_0_w[31]))),
        ~(x7_0[4] ^ (~x8_0_w[15] ^ (~x8_0_w[28] & ~x8_0_w[30]))),
        ~(x7_0[3] ^ (x8_0_w[14] ^ (x8_0_w[27] & x8_0_w[29]))),
        (x7_0[2] ^ (~x8_0_w[13] ^ (~x8_0_w[26] & x8_0_w[28]))),
        ~(x7_0[1] ^ (x8_0_w[12] ^ (~x8_0_w[25] & ~x8_0_w[27]))),
        (x7_0[0] ^ (~x8_0_w[11] ^ (x8_0_w[24] & x8_0_w[26])))};
    reg [31:0] x9_0;
    always @(posedge clock) begin
        x2_0 <= x2_0_w;
        x3_0 <= x3_0_w;
        x4_0 <= x4_0_w;
        x5_0 <= x5_0_w;
        x6_0 <= x6_0_w;
        x7_0 <= x7_0_w;
        x8_0 <= x8_0_w;
        x9_0 <= x9_0_w;
    end
    always @(*) stream = {192'd0, x8_0, x9_0};
endmodule // bloom_core_control_hash


module bloom_core_control_hit6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_hit6


module bloom_core_control_line(clock,reset,accept,op,tag,rb_req,rb_bank,rb_addr,rb_write,rb_wdata,idle,accept_out,op_out,tag_out,rb_req_out,rb_bank_out,rb_addr_out,rb_write_out,rb_wdata_out,idle_out,clear_ahead);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  accept;
    input wire  [1:0] op;
    input wire  [7:0] tag;
    input wire  rb_req;
    input wire  [3:0] rb_bank;
    input wire  [15:0] rb_addr;
    input wire  rb_write;
    input wire  rb_wdata;
    input wire  idle;
    output reg  accept_out;
    output reg  [1:0] op_out;
    output reg  [7:0] tag_out;
    output reg  rb_req_out;
    output reg  [3:0] rb_bank_out;
    output reg  [15:0] rb_addr_out;
    output reg  rb_write_out;
    output reg  rb_wdata_out;
    output reg  idle_out;
    output reg  clear_ahead;
    
    // Update code (custom)
    reg clear_in_line;
    reg [0:0] accept_1;
    reg [0:0] accept_2;
    reg [1:0] op_1;
    reg [1:0] op_2;
    reg [7:0] tag_1;
    reg [7:0] tag_2;
    reg [0:0] rb_req_1;
    reg [0:0] rb_req_2;
    reg [3:0] rb_bank_1;
    reg [3:0] rb_bank_2;
    reg [15:0] rb_addr_1;
    reg [15:0] rb_addr_2;
    reg [0:0] rb_write_1;
    reg [0:0] rb_write_2;
    reg [0:0] rb_wdata_1;
    reg [0:0] rb_wdata_2;
    reg [0:0] idle_1;
    reg [0:0] idle_2;
    always @(posedge clock) begin
        accept_1 <= reset ? 1'b0 : accept;
        accept_2 <= reset ? 1'b0 : accept_1;
        op_1 <= op;
        op_2 <= op_1;
        tag_1 <= tag;
        tag_2 <= tag_1;
        rb_req_1 <= reset ? 1'b0 : rb_req;
        rb_req_2 <= reset ? 1'b0 : rb_req_1;
        rb_bank_1 <= rb_bank;
        rb_bank_2 <= rb_bank_1;
        rb_addr_1 <= rb_addr;
        rb_addr_2 <= rb_addr_1;
        rb_write_1 <= reset ? 1'b0 : rb_write;
        rb_write_2 <= reset ? 1'b0 : rb_write_1;
        rb_wdata_1 <= rb_wdata;
        rb_wdata_2 <= rb_wdata_1;
        idle_1 <= idle;
        idle_2 <= idle_1;
    end
    always @(*) begin
        accept_out = accept_2;
        op_out = op_2;
        tag_out = tag_2;
        rb_req_out = rb_req_2;
        rb_bank_out = rb_bank_2;
        rb_addr_out = rb_addr_2;
        rb_write_out = rb_write_2;
        rb_wdata_out = rb_wdata_2;
        idle_out = idle_2;
        clear_ahead = clear_in_line;
    end
    always @(posedge clock) clear_in_line <= reset ? 1'b0 : ((accept & (op == 2'd2)) | (accept_1 & (op_1 == 2'd2)));
endmodule // bloom_core_control_line


module bloom_core_control_outstanding(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_outstanding


module bloom_core_control_rb_data6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_rb_data6


module bloom_core_control_rb_valid6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_rb_valid6


module bloom_core_control_scrubber(clock,reset,req,free0,recount3,busy,take1,addr1,scrub4,counted4,ptr3,zero5,finish,idle,power_up);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  req;
    input wire  free0;
    input wire  recount3;
    output reg  busy;
    output reg  take1;
    output reg  [15:0] addr1;
    output reg  scrub4;
    output reg  counted4;
    output reg  [16:0] ptr3;
    output reg  zero5;
    output reg  finish;
    input wire  idle;
    output reg  power_up;
    
    // Constant declarations
    localparam  built = 1'b0;
    localparam  periodic = 1'b0;
    localparam  tick_last = 24'h0;
    localparam  tick_zero = 24'h0;
    localparam  tick_one = 24'h1;
    localparam  pos_zero = 17'b0;
    localparam  pos_one = 17'b1;
    localparam  pos_mask = 17'b1111111111111;
    localparam  pos_end = 17'b1000000000000;
    localparam  bits_zero = 8'h0;
    localparam  bits_one = 8'h1;
    localparam  start_at5 = 8'h10;
    localparam  finish_at = 8'h40;
    
    // Stub signals
    reg  active$d;
    wire  active$q;
    reg  active$clock;
    reg  take_r$d;
    wire  take_r$q;
    reg  take_r$clock;
    reg  [16:0] pos$d;
    wire  [16:0] pos$q;
    reg  pos$clock;
    reg  ended$d;
    wire  ended$q;
    reg  ended$clock;
    reg  slot2$d;
    wire  slot2$q;
    reg  slot2$clock;
    reg  slot3$d;
    wire  slot3$q;
    reg  slot3$clock;
    reg  slot4$d;
    wire  slot4$q;
    reg  slot4$clock;
    reg  counted4_r$d;
    wire  counted4_r$q;
    reg  counted4_r$clock;
    reg  [16:0] ptr2$d;
    wire  [16:0] ptr2$q;
    reg  ptr2$clock;
    reg  [16:0] ptr3_r$d;
    wire  [16:0] ptr3_r$q;
    reg  ptr3_r$clock;
    reg  [7:0] started$d;
    wire  [7:0] started$q;
    reg  started$clock;
    reg  [7:0] ending$d;
    wire  [7:0] ending$q;
    reg  ending$clock;
    reg  armed$d;
    wire  armed$q;
    reg  armed$clock;
    reg  checked$d;
    wire  checked$q;
    reg  checked$clock;
    reg  idle_d$d;
    wire  idle_d$q;
    reg  idle_d$clock;
    reg  pu1$d;
    wire  pu1$q;
    reg  pu1$clock;
    reg  pu2$d;
    wire  pu2$q;
    reg  pu2$clock;
    reg  [23:0] tick_count$d;
    wire  [23:0] tick_count$q;
    reg  tick_count$clock;
    
    // Local signals
    reg  start0;
    reg  pu_start;
    reg  rise;
    reg  tick;
    reg  [16:0] step;
    
    // Sub module instances
    bloom_core_control_scrubber_active active(
        .d(active$d),
        .q(active$q),
        .clock(active$clock)
    );
    bloom_core_control_scrubber_take_r take_r(
        .d(take_r$d),
        .q(take_r$q),
        .clock(take_r$clock)
    );
    bloom_core_control_scrubber_pos pos(
        .d(pos$d),
        .q(pos$q),
        .clock(pos$clock)
    );
    bloom_core_control_scrubber_ended ended(
        .d(ended$d),
        .q(ended$q),
        .clock(ended$clock)
    );
    bloom_core_control_scrubber_slot2 slot2(
        .d(slot2$d),
        .q(slot2$q),
        .clock(slot2$clock)
    );
    bloom_core_control_scrubber_slot3 slot3(
        .d(slot3$d),
        .q(slot3$q),
        .clock(slot3$clock)
    );
    bloom_core_control_scrubber_slot4 slot4(
        .d(slot4$d),
        .q(slot4$q),
        .clock(slot4$clock)
    );
    bloom_core_control_scrubber_counted4_r counted4_r(
        .d(counted4_r$d),
        .q(counted4_r$q),
        .clock(counted4_r$clock)
    );
    bloom_core_control_scrubber_ptr2 ptr2(
        .d(ptr2$d),
        .q(ptr2$q),
        .clock(ptr2$clock)
    );
    bloom_core_control_scrubber_ptr3_r ptr3_r(
        .d(ptr3_r$d),
        .q(ptr3_r$q),
        .clock(ptr3_r$clock)
    );
    bloom_core_control_scrubber_started started(
        .d(started$d),
        .q(started$q),
        .clock(started$clock)
    );
    bloom_core_control_scrubber_ending ending(
        .d(ending$d),
        .q(ending$q),
        .clock(ending$clock)
    );
    bloom_core_control_scrubber_armed armed(
        .d(armed$d),
        .q(armed$q),
        .clock(armed$clock)
    );
    bloom_core_control_scrubber_checked checked(
        .d(checked$d),
        .q(checked$q),
        .clock(checked$clock)
    );
    bloom_core_control_scrubber_idle_d idle_d(
        .d(idle_d$d),
        .q(idle_d$q),
        .clock(idle_d$clock)
    );
    bloom_core_control_scrubber_pu1 pu1(
        .d(pu1$d),
        .q(pu1$q),
        .clock(pu1$clock)
    );
    bloom_core_control_scrubber_pu2 pu2(
        .d(pu2$d),
        .q(pu2$q),
        .clock(pu2$clock)
    );
    bloom_core_control_scrubber_tick_count tick_count(
        .d(tick_count$d),
        .q(tick_count$q),
        .clock(tick_count$clock)
    );
    
    // Update code
    always @(*) begin
        active$clock = clock;
        take_r$clock = clock;
        pos$clock = clock;
        ended$clock = clock;
        slot2$clock = clock;
        slot3$clock = clock;
        slot4$clock = clock;
        counted4_r$clock = clock;
        ptr2$clock = clock;
        ptr3_r$clock = clock;
        started$clock = clock;
        ending$clock = clock;
        armed$clock = clock;
        checked$clock = clock;
        idle_d$clock = clock;
        pu1$clock = clock;
        pu2$clock = clock;
        tick_count$clock = clock;
        active$d = active$q;
        take_r$d = take_r$q;
        pos$d = pos$q;
        ended$d = ended$q;
        slot2$d = slot2$q;
        slot3$d = slot3$q;
        slot4$d = slot4$q;
        counted4_r$d = counted4_r$q;
        ptr2$d = ptr2$q;
        ptr3_r$d = ptr3_r$q;
        started$d = started$q;
        ending$d = ending$q;
        armed$d = armed$q;
        checked$d = checked$q;
        idle_d$d = idle_d$q;
        pu1$d = pu1$q;
        pu2$d = pu2$q;
        tick_count$d = tick_count$q;
        tick = (tick_count$q == tick_last) & periodic;
        if (tick) begin
            tick_count$d = tick_zero;
        end
        else begin
            tick_count$d = tick_count$q + tick_one;
        end
        start0 = ((req | tick) & built) & ~active$q;
        finish = (ending$q & finish_at) != bits_zero;
        active$d = (active$q | start0) & ~finish;
        take_r$d = active$q & free0;
        if (take_r$q) begin
            step = pos_one;
        end
        else begin
            step = pos_zero;
        end
        if (start0) begin
            pos$d = pos_zero;
        end
        else begin
            pos$d = (pos$q + step) & pos_mask;
        end
        ended$d = (pos$q & pos_end) != pos_zero;
        rise = ((pos$q & pos_end) != pos_zero) & ~ended$q;
        if (rise) begin
            ending$d = (ending$q << bits_one) | bits_one;
        end
        else begin
            ending$d = ending$q << bits_one;
        end
        if (start0) begin
            started$d = (started$q << bits_one) | bits_one;
        end
        else begin
            started$d = started$q << bits_one;
        end
        slot2$d = take_r$q & ((pos$q & pos_end) == pos_zero);
        slot3$d = slot2$q;
        slot4$d = slot3$q;
        counted4_r$d = slot3$q | recount3;
        ptr2$d = pos$q;
        ptr3_r$d = ptr2$q;
        busy = active$q;
        take1 = take_r$q;
        addr1 = pos$q[(32'h0)+:(16)];
        scrub4 = slot4$q;
        counted4 = counted4_r$q;
        ptr3 = ptr3_r$q;
        zero5 = (started$q & start_at5) != bits_zero;
        armed$d = armed$q | reset;
        idle_d$d = idle;
        pu_start = ((idle & ~idle_d$q) & (armed$q & ~checked$q)) & ~reset;
        pu1$d = pu_start;
        pu2$d = pu1$q & ~reset;
        checked$d = checked$q | (pu2$q & ~reset);
        power_up = pu2$q & ~reset;
        if (~built) begin
            armed$d = 1'b0;
            checked$d = 1'b0;
            idle_d$d = 1'b0;
            pu1$d = 1'b0;
            pu2$d = 1'b0;
        end
        if (reset) begin
            counted4_r$d = 1'b0;
        end
        if (reset | ~(built & periodic)) begin
            tick_count$d = tick_zero;
        end
        if (reset | ~built) begin
            active$d = 1'b0;
            take_r$d = 1'b0;
            pos$d = pos_zero;
            ended$d = 1'b0;
            slot2$d = 1'b0;
            slot3$d = 1'b0;
            slot4$d = 1'b0;
            ptr2$d = pos_zero;
            ptr3_r$d = pos_zero;
            started$d = bits_zero;
            ending$d = bits_zero;
        end
    end
    
endmodule // bloom_core_control_scrubber


module bloom_core_control_scrubber_active(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_active


module bloom_core_control_scrubber_armed(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_armed


module bloom_core_control_scrubber_checked(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_checked


module bloom_core_control_scrubber_counted4_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_counted4_r


module bloom_core_control_scrubber_ended(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_ended


module bloom_core_control_scrubber_ending(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_ending


module bloom_core_control_scrubber_idle_d(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_idle_d


module bloom_core_control_scrubber_pos(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_pos


module bloom_core_control_scrubber_ptr2(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_ptr2


module bloom_core_control_scrubber_ptr3_r(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_ptr3_r


module bloom_core_control_scrubber_pu1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_pu1


module bloom_core_control_scrubber_pu2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_pu2


module bloom_core_control_scrubber_slot2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_slot2


module bloom_core_control_scrubber_slot3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_slot3


module bloom_core_control_scrubber_slot4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_slot4


module bloom_core_control_scrubber_started(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_started


module bloom_core_control_scrubber_take_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_take_r


module bloom_core_control_scrubber_tick_count(d,q,clock);
    
    // Module arguments
    input wire  [23:0] d;
    output reg  [23:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 24'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_scrubber_tick_count


module bloom_core_control_stages(clock,reset,accept,op,tag,key,rb_req,rb_bank,rb_addr,rb_write,rb_wdata,idle,sweep_lead,sweep_count,recount,scrub_take1,scrub_addr1,key1,is_rb2,rb_addr2,write4,wdata4,write4_next,wdata4_next,clear5,valid5,tag5,not_clear5,rb5,rb_select5);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  accept;
    input wire  [1:0] op;
    input wire  [7:0] tag;
    input wire  [63:0] key;
    input wire  rb_req;
    input wire  [3:0] rb_bank;
    input wire  [15:0] rb_addr;
    input wire  rb_write;
    input wire  rb_wdata;
    input wire  idle;
    input wire  sweep_lead;
    input wire  [15:0] sweep_count;
    input wire  recount;
    input wire  scrub_take1;
    input wire  [15:0] scrub_addr1;
    output reg  [63:0] key1;
    output reg  is_rb2;
    output reg  [15:0] rb_addr2;
    output reg  [15:0] write4;
    output reg  wdata4;
    output reg  [15:0] write4_next;
    output reg  wdata4_next;
    output reg  clear5;
    output reg  valid5;
    output reg  [7:0] tag5;
    output reg  not_clear5;
    output reg  rb5;
    output reg  [15:0] rb_select5;
    
    // Constant declarations
    localparam  op_insert = 2'b1;
    localparam  op_clear = 2'b10;
    localparam  select_one = 16'h1;
    localparam  select_zero = 16'h0;
    localparam  select_all = 16'hffff;
    localparam  address_mask = 16'hfff;
    
    // Stub signals
    reg  valid1$d;
    wire  valid1$q;
    reg  valid1$clock;
    reg  valid2$d;
    wire  valid2$q;
    reg  valid2$clock;
    reg  valid3$d;
    wire  valid3$q;
    reg  valid3$clock;
    reg  valid4$d;
    wire  valid4$q;
    reg  valid4$clock;
    reg  valid5_r$d;
    wire  valid5_r$q;
    reg  valid5_r$clock;
    reg  [1:0] op1$d;
    wire  [1:0] op1$q;
    reg  op1$clock;
    reg  [1:0] op2$d;
    wire  [1:0] op2$q;
    reg  op2$clock;
    reg  [1:0] op3$d;
    wire  [1:0] op3$q;
    reg  op3$clock;
    reg  [1:0] op4$d;
    wire  [1:0] op4$q;
    reg  op4$clock;
    reg  [7:0] tag1$d;
    wire  [7:0] tag1$q;
    reg  tag1$clock;
    reg  [7:0] tag2$d;
    wire  [7:0] tag2$q;
    reg  tag2$clock;
    reg  [7:0] tag3$d;
    wire  [7:0] tag3$q;
    reg  tag3$clock;
    reg  [7:0] tag4$d;
    wire  [7:0] tag4$q;
    reg  tag4$clock;
    reg  [7:0] tag5_r$d;
    wire  [7:0] tag5_r$q;
    reg  tag5_r$clock;
    reg  rb1$d;
    wire  rb1$q;
    reg  rb1$clock;
    reg  rb2$d;
    wire  rb2$q;
    reg  rb2$clock;
    reg  rb3$d;
    wire  rb3$q;
    reg  rb3$clock;
    reg  rb4$d;
    wire  rb4$q;
    reg  rb4$clock;
    reg  rb5_r$d;
    wire  rb5_r$q;
    reg  rb5_r$clock;
    reg  [15:0] rb_address1$d;
    wire  [15:0] rb_address1$q;
    reg  rb_address1$clock;
    reg  [15:0] rb_address2$d;
    wire  [15:0] rb_address2$q;
    reg  rb_address2$clock;
    reg  [3:0] rb_bank1$d;
    wire  [3:0] rb_bank1$q;
    reg  rb_bank1$clock;
    reg  [3:0] rb_bank2$d;
    wire  [3:0] rb_bank2$q;
    reg  rb_bank2$clock;
    reg  [3:0] rb_bank3$d;
    wire  [3:0] rb_bank3$q;
    reg  rb_bank3$clock;
    reg  [3:0] rb_bank4$d;
    wire  [3:0] rb_bank4$q;
    reg  rb_bank4$clock;
    reg  [15:0] rb_select_5$d;
    wire  [15:0] rb_select_5$q;
    reg  rb_select_5$clock;
    reg  wr1$d;
    wire  wr1$q;
    reg  wr1$clock;
    reg  wr2$d;
    wire  wr2$q;
    reg  wr2$clock;
    reg  wr3$d;
    wire  wr3$q;
    reg  wr3$clock;
    reg  wdata1$d;
    wire  wdata1$q;
    reg  wdata1$clock;
    reg  wdata2$d;
    wire  wdata2$q;
    reg  wdata2$clock;
    reg  wdata3$d;
    wire  wdata3$q;
    reg  wdata3$clock;
    reg  [63:0] key_1$d;
    wire  [63:0] key_1$q;
    reg  key_1$clock;
    reg  addr_rb2$d;
    wire  addr_rb2$q;
    reg  addr_rb2$clock;
    reg  not_clear5_r$d;
    wire  not_clear5_r$q;
    reg  not_clear5_r$clock;
    reg  [15:0] write_en4$d;
    wire  [15:0] write_en4$q;
    reg  write_en4$clock;
    reg  write_data4$d;
    wire  write_data4$q;
    reg  write_data4$clock;
    reg  clear_at5$d;
    wire  clear_at5$q;
    reg  clear_at5$clock;
    
    // Sub module instances
    bloom_core_control_stages_valid1 valid1(
        .d(valid1$d),
        .q(valid1$q),
        .clock(valid1$clock)
    );
    bloom_core_control_stages_valid2 valid2(
        .d(valid2$d),
        .q(valid2$q),
        .clock(valid2$clock)
    );
    bloom_core_control_stages_valid3 valid3(
        .d(valid3$d),
        .q(valid3$q),
        .clock(valid3$clock)
    );
    bloom_core_control_stages_valid4 valid4(
        .d(valid4$d),
        .q(valid4$q),
        .clock(valid4$clock)
    );
    bloom_core_control_stages_valid5_r valid5_r(
        .d(valid5_r$d),
        .q(valid5_r$q),
        .clock(valid5_r$clock)
    );
    bloom_core_control_stages_op1 op1(
        .d(op1$d),
        .q(op1$q),
        .clock(op1$clock)
    );
    bloom_core_control_stages_op2 op2(
        .d(op2$d),
        .q(op2$q),
        .clock(op2$clock)
    );
    bloom_core_control_stages_op3 op3(
        .d(op3$d),
        .q(op3$q),
        .clock(op3$clock)
    );
    bloom_core_control_stages_op4 op4(
        .d(op4$d),
        .q(op4$q),
        .clock(op4$clock)
    );
    bloom_core_control_stages_tag1 tag1(
        .d(tag1$d),
        .q(tag1$q),
        .clock(tag1$clock)
    );
    bloom_core_control_stages_tag2 tag2(
        .d(tag2$d),
        .q(tag2$q),
        .clock(tag2$clock)
    );
    bloom_core_control_stages_tag3 tag3(
        .d(tag3$d),
        .q(tag3$q),
        .clock(tag3$clock)
    );
    bloom_core_control_stages_tag4 tag4(
        .d(tag4$d),
        .q(tag4$q),
        .clock(tag4$clock)
    );
    bloom_core_control_stages_tag5_r tag5_r(
        .d(tag5_r$d),
        .q(tag5_r$q),
        .clock(tag5_r$clock)
    );
    bloom_core_control_stages_rb1 rb1(
        .d(rb1$d),
        .q(rb1$q),
        .clock(rb1$clock)
    );
    bloom_core_control_stages_rb2 rb2(
        .d(rb2$d),
        .q(rb2$q),
        .clock(rb2$clock)
    );
    bloom_core_control_stages_rb3 rb3(
        .d(rb3$d),
        .q(rb3$q),
        .clock(rb3$clock)
    );
    bloom_core_control_stages_rb4 rb4(
        .d(rb4$d),
        .q(rb4$q),
        .clock(rb4$clock)
    );
    bloom_core_control_stages_rb5_r rb5_r(
        .d(rb5_r$d),
        .q(rb5_r$q),
        .clock(rb5_r$clock)
    );
    bloom_core_control_stages_rb_address1 rb_address1(
        .d(rb_address1$d),
        .q(rb_address1$q),
        .clock(rb_address1$clock)
    );
    bloom_core_control_stages_rb_address2 rb_address2(
        .d(rb_address2$d),
        .q(rb_address2$q),
        .clock(rb_address2$clock)
    );
    bloom_core_control_stages_rb_bank1 rb_bank1(
        .d(rb_bank1$d),
        .q(rb_bank1$q),
        .clock(rb_bank1$clock)
    );
    bloom_core_control_stages_rb_bank2 rb_bank2(
        .d(rb_bank2$d),
        .q(rb_bank2$q),
        .clock(rb_bank2$clock)
    );
    bloom_core_control_stages_rb_bank3 rb_bank3(
        .d(rb_bank3$d),
        .q(rb_bank3$q),
        .clock(rb_bank3$clock)
    );
    bloom_core_control_stages_rb_bank4 rb_bank4(
        .d(rb_bank4$d),
        .q(rb_bank4$q),
        .clock(rb_bank4$clock)
    );
    bloom_core_control_stages_rb_select_5 rb_select_5(
        .d(rb_select_5$d),
        .q(rb_select_5$q),
        .clock(rb_select_5$clock)
    );
    bloom_core_control_stages_wr1 wr1(
        .d(wr1$d),
        .q(wr1$q),
        .clock(wr1$clock)
    );
    bloom_core_control_stages_wr2 wr2(
        .d(wr2$d),
        .q(wr2$q),
        .clock(wr2$clock)
    );
    bloom_core_control_stages_wr3 wr3(
        .d(wr3$d),
        .q(wr3$q),
        .clock(wr3$clock)
    );
    bloom_core_control_stages_wdata1 wdata1(
        .d(wdata1$d),
        .q(wdata1$q),
        .clock(wdata1$clock)
    );
    bloom_core_control_stages_wdata2 wdata2(
        .d(wdata2$d),
        .q(wdata2$q),
        .clock(wdata2$clock)
    );
    bloom_core_control_stages_wdata3 wdata3(
        .d(wdata3$d),
        .q(wdata3$q),
        .clock(wdata3$clock)
    );
    bloom_core_control_stages_key_1 key_1(
        .d(key_1$d),
        .q(key_1$q),
        .clock(key_1$clock)
    );
    bloom_core_control_stages_addr_rb2 addr_rb2(
        .d(addr_rb2$d),
        .q(addr_rb2$q),
        .clock(addr_rb2$clock)
    );
    bloom_core_control_stages_not_clear5_r not_clear5_r(
        .d(not_clear5_r$d),
        .q(not_clear5_r$q),
        .clock(not_clear5_r$clock)
    );
    bloom_core_control_stages_write_en4 write_en4(
        .d(write_en4$d),
        .q(write_en4$q),
        .clock(write_en4$clock)
    );
    bloom_core_control_stages_write_data4 write_data4(
        .d(write_data4$d),
        .q(write_data4$q),
        .clock(write_data4$clock)
    );
    bloom_core_control_stages_clear_at5 clear_at5(
        .d(clear_at5$d),
        .q(clear_at5$q),
        .clock(clear_at5$clock)
    );
    
    // Update code
    always @(*) begin
        valid1$clock = clock;
        valid2$clock = clock;
        valid3$clock = clock;
        valid4$clock = clock;
        valid5_r$clock = clock;
        op1$clock = clock;
        op2$clock = clock;
        op3$clock = clock;
        op4$clock = clock;
        tag1$clock = clock;
        tag2$clock = clock;
        tag3$clock = clock;
        tag4$clock = clock;
        tag5_r$clock = clock;
        rb1$clock = clock;
        rb2$clock = clock;
        rb3$clock = clock;
        rb4$clock = clock;
        rb5_r$clock = clock;
        rb_address1$clock = clock;
        rb_address2$clock = clock;
        rb_bank1$clock = clock;
        rb_bank2$clock = clock;
        rb_bank3$clock = clock;
        rb_bank4$clock = clock;
        rb_select_5$clock = clock;
        key_1$clock = clock;
        not_clear5_r$clock = clock;
        write_en4$clock = clock;
        write_data4$clock = clock;
        clear_at5$clock = clock;
        wr1$clock = clock;
        wr2$clock = clock;
        wr3$clock = clock;
        wdata1$clock = clock;
        wdata2$clock = clock;
        wdata3$clock = clock;
        addr_rb2$clock = clock;
        valid1$d = valid1$q;
        valid2$d = valid2$q;
        valid3$d = valid3$q;
        valid4$d = valid4$q;
        valid5_r$d = valid5_r$q;
        op1$d = op1$q;
        op2$d = op2$q;
        op3$d = op3$q;
        op4$d = op4$q;
        tag1$d = tag1$q;
        tag2$d = tag2$q;
        tag3$d = tag3$q;
        tag4$d = tag4$q;
        tag5_r$d = tag5_r$q;
        rb1$d = rb1$q;
        rb2$d = rb2$q;
        rb3$d = rb3$q;
        rb4$d = rb4$q;
        rb5_r$d = rb5_r$q;
        rb_address1$d = rb_address1$q;
        rb_address2$d = rb_address2$q;
        rb_bank1$d = rb_bank1$q;
        rb_bank2$d = rb_bank2$q;
        rb_bank3$d = rb_bank3$q;
        rb_bank4$d = rb_bank4$q;
        rb_select_5$d = rb_select_5$q;
        key_1$d = key_1$q;
        not_clear5_r$d = not_clear5_r$q;
        write_en4$d = write_en4$q;
        write_data4$d = write_data4$q;
        clear_at5$d = clear_at5$q;
        wr1$d = wr1$q;
        wr2$d = wr2$q;
        wr3$d = wr3$q;
        wdata1$d = wdata1$q;
        wdata2$d = wdata2$q;
        wdata3$d = wdata3$q;
        addr_rb2$d = addr_rb2$q;
        valid1$d = accept;
        op1$d = op;
        tag1$d = tag;
        key_1$d = key;
        rb1$d = rb_req;
        rb_address1$d = rb_addr & address_mask;
        rb_bank1$d = rb_bank;
        wr1$d = (rb_req & rb_write) & idle;
        wdata1$d = rb_wdata;
        wr2$d = wr1$q;
        wdata2$d = wdata1$q;
        wr3$d = wr2$q;
        wdata3$d = wdata2$q;
        valid2$d = valid1$q;
        op2$d = op1$q;
        tag2$d = tag1$q;
        rb2$d = rb1$q;
        if (sweep_lead & recount) begin
            rb_address2$d = sweep_count;
        end
        else if (scrub_take1) begin
            rb_address2$d = scrub_addr1 & address_mask;
        end
        else begin
            rb_address2$d = rb_address1$q;
        end
        addr_rb2$d = (rb1$q | scrub_take1) | (sweep_lead & recount);
        rb_bank2$d = rb_bank1$q;
        valid3$d = valid2$q;
        op3$d = op2$q;
        tag3$d = tag2$q;
        rb3$d = rb2$q;
        rb_bank3$d = rb_bank2$q;
        valid4$d = valid3$q;
        op4$d = op3$q;
        tag4$d = tag3$q;
        rb4$d = rb3$q;
        rb_bank4$d = rb_bank3$q;
        valid5_r$d = valid4$q;
        tag5_r$d = tag4$q;
        rb5_r$d = rb4$q;
        not_clear5_r$d = op4$q != op_clear;
        if (rb4$q) begin
            rb_select_5$d = select_one << rb_bank4$q;
        end
        else begin
            rb_select_5$d = select_zero;
        end
        if ((valid3$q & (op3$q == op_insert)) | (sweep_lead & ~recount)) begin
            write_en4$d = select_all;
        end
        else if (wr3$q) begin
            write_en4$d = select_one << rb_bank3$q;
        end
        else begin
            write_en4$d = select_zero;
        end
        if (wr3$q) begin
            write_data4$d = wdata3$q;
        end
        else begin
            write_data4$d = ~sweep_lead;
        end
        clear_at5$d = valid4$q & (op4$q == op_clear);
        key1 = key_1$q;
        is_rb2 = addr_rb2$q;
        rb_addr2 = rb_address2$q;
        write4 = write_en4$q;
        wdata4 = write_data4$q;
        clear5 = clear_at5$q;
        valid5 = valid5_r$q;
        tag5 = tag5_r$q;
        not_clear5 = not_clear5_r$q;
        rb5 = rb5_r$q;
        rb_select5 = rb_select_5$q;
        if (reset) begin
            valid1$d = 1'b0;
            valid2$d = 1'b0;
            valid3$d = 1'b0;
            valid4$d = 1'b0;
            valid5_r$d = 1'b0;
            rb1$d = 1'b0;
            rb2$d = 1'b0;
            rb3$d = 1'b0;
            rb4$d = 1'b0;
            rb5_r$d = 1'b0;
            rb_select_5$d = select_zero;
            write_en4$d = select_zero;
            clear_at5$d = 1'b0;
            wr1$d = 1'b0;
            wr2$d = 1'b0;
            wr3$d = 1'b0;
            addr_rb2$d = 1'b0;
        end
        write4_next = write_en4$d;
        wdata4_next = write_data4$d;
    end
    
endmodule // bloom_core_control_stages


module bloom_core_control_stages_addr_rb2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_addr_rb2


module bloom_core_control_stages_clear_at5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_clear_at5


module bloom_core_control_stages_key_1(d,q,clock);
    
    // Module arguments
    input wire  [63:0] d;
    output reg  [63:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 64'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_key_1


module bloom_core_control_stages_not_clear5_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_not_clear5_r


module bloom_core_control_stages_op1(d,q,clock);
    
    // Module arguments
    input wire  [1:0] d;
    output reg  [1:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 2'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_op1


module bloom_core_control_stages_op2(d,q,clock);
    
    // Module arguments
    input wire  [1:0] d;
    output reg  [1:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 2'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_op2


module bloom_core_control_stages_op3(d,q,clock);
    
    // Module arguments
    input wire  [1:0] d;
    output reg  [1:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 2'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_op3


module bloom_core_control_stages_op4(d,q,clock);
    
    // Module arguments
    input wire  [1:0] d;
    output reg  [1:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 2'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_op4


module bloom_core_control_stages_rb1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb1


module bloom_core_control_stages_rb2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb2


module bloom_core_control_stages_rb3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb3


module bloom_core_control_stages_rb4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb4


module bloom_core_control_stages_rb5_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb5_r


module bloom_core_control_stages_rb_address1(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_address1


module bloom_core_control_stages_rb_address2(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_address2


module bloom_core_control_stages_rb_bank1(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_bank1


module bloom_core_control_stages_rb_bank2(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_bank2


module bloom_core_control_stages_rb_bank3(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_bank3


module bloom_core_control_stages_rb_bank4(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_bank4


module bloom_core_control_stages_rb_select_5(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_rb_select_5


module bloom_core_control_stages_tag1(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_tag1


module bloom_core_control_stages_tag2(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_tag2


module bloom_core_control_stages_tag3(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_tag3


module bloom_core_control_stages_tag4(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_tag4


module bloom_core_control_stages_tag5_r(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_tag5_r


module bloom_core_control_stages_valid1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_valid1


module bloom_core_control_stages_valid2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_valid2


module bloom_core_control_stages_valid3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_valid3


module bloom_core_control_stages_valid4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_valid4


module bloom_core_control_stages_valid5_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_valid5_r


module bloom_core_control_stages_wdata1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wdata1


module bloom_core_control_stages_wdata2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wdata2


module bloom_core_control_stages_wdata3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wdata3


module bloom_core_control_stages_wr1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wr1


module bloom_core_control_stages_wr2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wr2


module bloom_core_control_stages_wr3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_wr3


module bloom_core_control_stages_write_data4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_write_data4


module bloom_core_control_stages_write_en4(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_stages_write_en4


module bloom_core_control_sweep(clock,reset,clear0,idle,lead,count,sweeping,recount,recount3);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  clear0;
    output reg  idle;
    output reg  lead;
    output reg  [15:0] count;
    output reg  sweeping;
    output reg  recount;
    output reg  recount3;
    
    // Constant declarations
    localparam  sweep_before_last = 16'hffe;
    localparam  sweep_one = 16'h1;
    localparam  sweep_zero = 16'h0;
    localparam  address_mask = 16'hfff;
    
    // Stub signals
    reg  clear1$d;
    wire  clear1$q;
    reg  clear1$clock;
    reg  clear2$d;
    wire  clear2$q;
    reg  clear2$clock;
    reg  idle_r$d;
    wire  idle_r$q;
    reg  idle_r$clock;
    reg  sweep_lead$d;
    wire  sweep_lead$q;
    reg  sweep_lead$clock;
    reg  [15:0] sweep_count$d;
    wire  [15:0] sweep_count$q;
    reg  sweep_count$clock;
    reg  sweep_step$d;
    wire  sweep_step$q;
    reg  sweep_step$clock;
    reg  sweep_at_last$d;
    wire  sweep_at_last$q;
    reg  sweep_at_last$clock;
    reg  sweeping_r$d;
    wire  sweeping_r$q;
    reg  sweeping_r$clock;
    reg  recount_mode$d;
    wire  recount_mode$q;
    reg  recount_mode$clock;
    reg  recount_slot2$d;
    wire  recount_slot2$q;
    reg  recount_slot2$clock;
    reg  recount_slot3$d;
    wire  recount_slot3$q;
    reg  recount_slot3$clock;
    reg  recount_slot4_r$d;
    wire  recount_slot4_r$q;
    reg  recount_slot4_r$clock;
    reg  recount_slot5$d;
    wire  recount_slot5$q;
    reg  recount_slot5$clock;
    
    // Sub module instances
    bloom_core_control_sweep_clear1 clear1(
        .d(clear1$d),
        .q(clear1$q),
        .clock(clear1$clock)
    );
    bloom_core_control_sweep_clear2 clear2(
        .d(clear2$d),
        .q(clear2$q),
        .clock(clear2$clock)
    );
    bloom_core_control_sweep_idle_r idle_r(
        .d(idle_r$d),
        .q(idle_r$q),
        .clock(idle_r$clock)
    );
    bloom_core_control_sweep_sweep_lead sweep_lead(
        .d(sweep_lead$d),
        .q(sweep_lead$q),
        .clock(sweep_lead$clock)
    );
    bloom_core_control_sweep_sweep_count sweep_count(
        .d(sweep_count$d),
        .q(sweep_count$q),
        .clock(sweep_count$clock)
    );
    bloom_core_control_sweep_sweep_step sweep_step(
        .d(sweep_step$d),
        .q(sweep_step$q),
        .clock(sweep_step$clock)
    );
    bloom_core_control_sweep_sweep_at_last sweep_at_last(
        .d(sweep_at_last$d),
        .q(sweep_at_last$q),
        .clock(sweep_at_last$clock)
    );
    bloom_core_control_sweep_sweeping_r sweeping_r(
        .d(sweeping_r$d),
        .q(sweeping_r$q),
        .clock(sweeping_r$clock)
    );
    bloom_core_control_sweep_recount_mode recount_mode(
        .d(recount_mode$d),
        .q(recount_mode$q),
        .clock(recount_mode$clock)
    );
    bloom_core_control_sweep_recount_slot2 recount_slot2(
        .d(recount_slot2$d),
        .q(recount_slot2$q),
        .clock(recount_slot2$clock)
    );
    bloom_core_control_sweep_recount_slot3 recount_slot3(
        .d(recount_slot3$d),
        .q(recount_slot3$q),
        .clock(recount_slot3$clock)
    );
    bloom_core_control_sweep_recount_slot4_r recount_slot4_r(
        .d(recount_slot4_r$d),
        .q(recount_slot4_r$q),
        .clock(recount_slot4_r$clock)
    );
    bloom_core_control_sweep_recount_slot5 recount_slot5(
        .d(recount_slot5$d),
        .q(recount_slot5$q),
        .clock(recount_slot5$clock)
    );
    
    // Update code
    always @(*) begin
        clear1$clock = clock;
        clear2$clock = clock;
        idle_r$clock = clock;
        sweep_lead$clock = clock;
        sweep_count$clock = clock;
        sweep_step$clock = clock;
        sweep_at_last$clock = clock;
        sweeping_r$clock = clock;
        recount_mode$clock = clock;
        recount_slot2$clock = clock;
        recount_slot3$clock = clock;
        recount_slot4_r$clock = clock;
        recount_slot5$clock = clock;
        clear1$d = clear1$q;
        clear2$d = clear2$q;
        idle_r$d = idle_r$q;
        sweep_lead$d = sweep_lead$q;
        sweep_count$d = sweep_count$q;
        sweep_step$d = sweep_step$q;
        sweep_at_last$d = sweep_at_last$q;
        sweeping_r$d = sweeping_r$q;
        recount_mode$d = recount_mode$q;
        recount_slot2$d = recount_slot2$q;
        recount_slot3$d = recount_slot3$q;
        recount_slot4_r$d = recount_slot4_r$q;
        recount_slot5$d = recount_slot5$q;
        clear1$d = clear0;
        clear2$d = clear1$q;
        recount_slot2$d = sweep_lead$q & recount_mode$q;
        recount_slot3$d = recount_slot2$q;
        recount_slot4_r$d = recount_slot3$q;
        recount_slot5$d = recount_slot4_r$q;
        if (sweep_step$q) begin
            if (clear2$q) begin
                sweep_count$d = sweep_zero;
            end
            else begin
                sweep_count$d = sweep_count$q + sweep_one;
            end
        end
        sweep_lead$d = clear2$q | (sweep_lead$q & ~sweep_at_last$q);
        recount_mode$d = recount_mode$q & ~(sweep_lead$q & sweep_at_last$q);
        sweep_at_last$d = (sweep_lead$q & ~sweep_at_last$q) & ((sweep_count$q & address_mask) == sweep_before_last);
        sweep_step$d = (clear1$q | clear2$q) | (sweep_lead$q & ~sweep_at_last$q);
        sweeping_r$d = sweep_lead$q;
        idle_r$d = (~clear0 & ~((clear1$q | clear2$q) | sweep_lead$q)) & ~((recount_slot2$q | recount_slot3$q) | (recount_slot4_r$q | recount_slot5$q));
        idle = idle_r$q;
        lead = sweep_lead$q;
        count = sweep_count$q;
        sweeping = sweeping_r$q;
        recount = recount_mode$q;
        recount3 = recount_slot3$q;
        if (reset) begin
            clear1$d = 1'b1;
            clear2$d = 1'b0;
            recount_mode$d = 1'b1;
            recount_slot2$d = 1'b0;
            recount_slot3$d = 1'b0;
            recount_slot4_r$d = 1'b0;
            recount_slot5$d = 1'b0;
            idle_r$d = 1'b0;
            sweep_step$d = 1'b0;
            sweep_lead$d = 1'b0;
            sweeping_r$d = 1'b0;
            sweep_at_last$d = 1'b0;
        end
    end
    
endmodule // bloom_core_control_sweep


module bloom_core_control_sweep_clear1(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_clear1


module bloom_core_control_sweep_clear2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_clear2


module bloom_core_control_sweep_idle_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_idle_r


module bloom_core_control_sweep_recount_mode(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_recount_mode


module bloom_core_control_sweep_recount_slot2(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_recount_slot2


module bloom_core_control_sweep_recount_slot3(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_recount_slot3


module bloom_core_control_sweep_recount_slot4_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_recount_slot4_r


module bloom_core_control_sweep_recount_slot5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_recount_slot5


module bloom_core_control_sweep_sweep_at_last(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_sweep_at_last


module bloom_core_control_sweep_sweep_count(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_sweep_count


module bloom_core_control_sweep_sweep_lead(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_sweep_lead


module bloom_core_control_sweep_sweep_step(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_sweep_step


module bloom_core_control_sweep_sweeping_r(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_sweep_sweeping_r


module bloom_core_control_tag6(d,q,clock);
    
    // Module arguments
    input wire  [7:0] d;
    output reg  [7:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 8'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_tag6


module bloom_core_control_valid6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_control_valid6


module bloom_core_parts_0(clock,reset,key1,stream2,is_rb2,rb_addr2,write4,wdata4,clear5,counted4,scrub4,ptr3,scrub_zero5,scrub_finish,power_up,sweep_en,sweep_en3,sweep_addr3,bit5,fill_low,fill_high,scrub_mismatch,write_addr_next);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  [255:0] stream2;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  [15:0] write4;
    input wire  wdata4;
    input wire  clear5;
    input wire  counted4;
    input wire  scrub4;
    input wire  [16:0] ptr3;
    input wire  scrub_zero5;
    input wire  scrub_finish;
    input wire  power_up;
    input wire  sweep_en;
    input wire  sweep_en3;
    input wire  [15:0] sweep_addr3;
    output reg  bit5;
    output reg  [7:0] fill_low;
    output reg  [8:0] fill_high;
    output reg  scrub_mismatch;
    output reg  [15:0] write_addr_next;
    
    // Constant declarations
    localparam  scrub_correction = 1'b1;
    localparam  scrub_built = 1'b0;
    localparam  forwarding_enabled = 1'b1;
    localparam  bank_select = 16'h1;
    localparam  count_zero = 17'b0;
    localparam  count_one = 17'b1;
    localparam  count_all = 17'b1111111111111;
    localparam  count_upper = 17'b1111111111110;
    localparam  address_mask_low = 16'hff;
    localparam  address_mask_high = 16'hf00;
    localparam  address_zero = 16'h0;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
    reg  [255:0] hash$stream;
    wire  [15:0] hash$addr;
    reg  ram$clock;
    reg  [15:0] ram$read_addr;
    wire  ram$read_data;
    reg  ram$write_enable;
    reg  [15:0] ram$write_addr;
    reg  ram$write_data;
    reg  [15:0] addr3$d;
    wire  [15:0] addr3$q;
    reg  addr3$clock;
    reg  [15:0] addr4$d;
    wire  [15:0] addr4$q;
    reg  addr4$clock;
    reg  same_low4$d;
    wire  same_low4$q;
    reg  same_low4$clock;
    reg  same_high4$d;
    wire  same_high4$q;
    reg  same_high4$clock;
    reg  up5$d;
    wire  up5$q;
    reg  up5$clock;
    reg  down5$d;
    wire  down5$q;
    reg  down5$clock;
    reg  set5$d;
    wire  set5$q;
    reg  set5$clock;
    reg  kill5$d;
    wire  kill5$q;
    reg  kill5$clock;
    reg  change_if_one5$d;
    wire  change_if_one5$q;
    reg  change_if_one5$clock;
    reg  change_if_zero5$d;
    wire  change_if_zero5$q;
    reg  change_if_zero5$clock;
    reg  down_if_one5$d;
    wire  down_if_one5$q;
    reg  down_if_one5$clock;
    reg  down_if_zero5$d;
    wire  down_if_zero5$q;
    reg  down_if_zero5$clock;
    reg  change6$d;
    wire  change6$q;
    reg  change6$clock;
    reg  down6$d;
    wire  down6$q;
    reg  down6$clock;
    reg  [16:0] count$d;
    wire  [16:0] count$q;
    reg  count$clock;
    reg  [15:0] addr3_wide$narrow;
    wire  [16:0] addr3_wide$wide;
    reg  lt_hi4$d;
    wire  lt_hi4$q;
    reg  lt_hi4$clock;
    reg  eq_hi4$d;
    wire  eq_hi4$q;
    reg  eq_hi4$clock;
    reg  lt_lo4$d;
    wire  lt_lo4$q;
    reg  lt_lo4$clock;
    reg  sc5$d;
    wire  sc5$q;
    reg  sc5$clock;
    reg  scrub5$d;
    wire  scrub5$q;
    reg  scrub5$clock;
    reg  sc_change6$d;
    wire  sc_change6$q;
    reg  sc_change6$clock;
    reg  sc_down6$d;
    wire  sc_down6$q;
    reg  sc_down6$clock;
    reg  [16:0] scrub_count$d;
    wire  [16:0] scrub_count$q;
    reg  scrub_count$clock;
    reg  compare$clock;
    reg  compare$reset;
    reg  [16:0] compare$fill;
    reg  [16:0] compare$scrub_count;
    reg  compare$finish;
    reg  compare$power_up;
    wire  compare$mismatch;
    
    // Local signals
    reg  [15:0] addr2;
    reg  up4;
    reg  down4;
    reg  kill4;
    reg  set4;
    reg  inc5;
    reg  dec5;
    reg  [16:0] delta6;
    reg  [16:0] step6;
    reg  [16:0] keep;
    reg  below4;
    reg  [16:0] sc_delta6;
    reg  [16:0] sc_step6;
    reg  [16:0] sc_keep;
    
    // Sub module instances
    bloom_core_parts_0_hash hash(
        .clock(hash$clock),
        .key(hash$key),
        .stream(hash$stream),
        .addr(hash$addr)
    );
    bloom_core_parts_0_ram ram(
        .clock(ram$clock),
        .read_addr(ram$read_addr),
        .read_data(ram$read_data),
        .write_enable(ram$write_enable),
        .write_addr(ram$write_addr),
        .write_data(ram$write_data)
    );
    bloom_core_parts_0_addr3 addr3(
        .d(addr3$d),
        .q(addr3$q),
        .clock(addr3$clock)
    );
    bloom_core_parts_0_addr4 addr4(
        .d(addr4$d),
        .q(addr4$q),
        .clock(addr4$clock)
    );
    bloom_core_parts_0_same_low4 same_low4(
        .d(same_low4$d),
        .q(same_low4$q),
        .clock(same_low4$clock)
    );
    bloom_core_parts_0_same_high4 same_high4(
        .d(same_high4$d),
        .q(same_high4$q),
        .clock(same_high4$clock)
    );
    bloom_core_parts_0_up5 up5(
        .d(up5$d),
        .q(up5$q),
        .clock(up5$clock)
    );
    bloom_core_parts_0_down5 down5(
        .d(down5$d),
        .q(down5$q),
        .clock(down5$clock)
    );
    bloom_core_parts_0_set5 set5(
        .d(set5$d),
        .q(set5$q),
        .clock(set5$clock)
    );
    bloom_core_parts_0_kill5 kill5(
        .d(kill5$d),
        .q(kill5$q),
        .clock(kill5$clock)
    );
    bloom_core_parts_0_change_if_one5 change_if_one5(
        .d(change_if_one5$d),
        .q(change_if_one5$q),
        .clock(change_if_one5$clock)
    );
    bloom_core_parts_0_change_if_zero5 change_if_zero5(
        .d(change_if_zero5$d),
        .q(change_if_zero5$q),
        .clock(change_if_zero5$clock)
    );
    bloom_core_parts_0_down_if_one5 down_if_one5(
        .d(down_if_one5$d),
        .q(down_if_one5$q),
        .clock(down_if_one5$clock)
    );
    bloom_core_parts_0_down_if_zero5 down_if_zero5(
        .d(down_if_zero5$d),
        .q(down_if_zero5$q),
        .clock(down_if_zero5$clock)
    );
    bloom_core_parts_0_change6 change6(
        .d(change6$d),
        .q(change6$q),
        .clock(change6$clock)
    );
    bloom_core_parts_0_down6 down6(
        .d(down6$d),
        .q(down6$q),
        .clock(down6$clock)
    );
    bloom_core_parts_0_count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    bloom_core_parts_0_addr3_wide addr3_wide(
        .narrow(addr3_wide$narrow),
        .wide(addr3_wide$wide)
    );
    bloom_core_parts_0_lt_hi4 lt_hi4(
        .d(lt_hi4$d),
        .q(lt_hi4$q),
        .clock(lt_hi4$clock)
    );
    bloom_core_parts_0_eq_hi4 eq_hi4(
        .d(eq_hi4$d),
        .q(eq_hi4$q),
        .clock(eq_hi4$clock)
    );
    bloom_core_parts_0_lt_lo4 lt_lo4(
        .d(lt_lo4$d),
        .q(lt_lo4$q),
        .clock(lt_lo4$clock)
    );
    bloom_core_parts_0_sc5 sc5(
        .d(sc5$d),
        .q(sc5$q),
        .clock(sc5$clock)
    );
    bloom_core_parts_0_scrub5 scrub5(
        .d(scrub5$d),
        .q(scrub5$q),
        .clock(scrub5$clock)
    );
    bloom_core_parts_0_sc_change6 sc_change6(
        .d(sc_change6$d),
        .q(sc_change6$q),
        .clock(sc_change6$clock)
    );
    bloom_core_parts_0_sc_down6 sc_down6(
        .d(sc_down6$d),
        .q(sc_down6$q),
        .clock(sc_down6$clock)
    );
    bloom_core_parts_0_scrub_count scrub_count(
        .d(scrub_count$d),
        .q(scrub_count$q),
        .clock(scrub_count$clock)
    );
    bloom_core_parts_0_compare compare(
        .clock(compare$clock),
        .reset(compare$reset),
        .fill(compare$fill),
        .scrub_count(compare$scrub_count),
        .finish(compare$finish),
        .power_up(compare$power_up),
        .mismatch(compare$mismatch)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        same_low4$clock = clock;
        same_high4$clock = clock;
        up5$clock = clock;
        down5$clock = clock;
        set5$clock = clock;
        kill5$clock = clock;
        change6$clock = clock;
        down6$clock = clock;
        count$clock = clock;
        change_if_one5$clock = clock;
        change_if_zero5$clock = clock;
        down_if_one5$clock = clock;
        down_if_zero5$clock = clock;
        lt_hi4$clock = clock;
        eq_hi4$clock = clock;
        lt_lo4$clock = clock;
        sc5$clock = clock;
        scrub5$clock = clock;
        sc_change6$clock = clock;
        sc_down6$clock = clock;
        scrub_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        same_low4$d = same_low4$q;
        same_high4$d = same_high4$q;
        up5$d = up5$q;
        down5$d = down5$q;
        set5$d = set5$q;
        kill5$d = kill5$q;
        change6$d = change6$q;
        down6$d = down6$q;
        count$d = count$q;
        change_if_one5$d = change_if_one5$q;
        change_if_zero5$d = change_if_zero5$q;
        down_if_one5$d = down_if_one5$q;
        down_if_zero5$d = down_if_zero5$q;
        lt_hi4$d = lt_hi4$q;
        eq_hi4$d = eq_hi4$q;
        lt_lo4$d = lt_lo4$q;
        sc5$d = sc5$q;
        scrub5$d = scrub5$q;
        sc_change6$d = sc_change6$q;
        sc_down6$d = sc_down6$q;
        scrub_count$d = scrub_count$q;
        hash$clock = clock;
        hash$key = key1;
        hash$stream = stream2;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        if (sweep_en3) begin
            addr4$d = sweep_addr3;
        end
        else begin
            addr4$d = addr3$q;
        end
        same_low4$d = ((addr3$q ^ addr4$q) & address_mask_low) == address_zero;
        same_high4$d = ((addr3$q ^ addr4$q) & address_mask_high) == address_zero;
        ram$write_enable = (write4 & bank_select) != address_zero;
        ram$write_addr = addr4$q;
        ram$write_data = wdata4;
        up4 = ((write4 & bank_select) != address_zero) & wdata4;
        down4 = ((write4 & bank_select) != address_zero) & ~(wdata4 | sweep_en);
        up5$d = up4;
        down5$d = down4;
        set4 = (forwarding_enabled & up5$q) & (same_low4$q & same_high4$q);
        kill4 = (forwarding_enabled & down5$q) & (same_low4$q & same_high4$q);
        set5$d = set4;
        kill5$d = kill4;
        change_if_one5$d = ((up4 & kill4) | ((down4 | scrub4) & ~kill4)) | (counted4 & ~scrub4);
        change_if_zero5$d = (up4 & ~set4) | ((down4 | scrub4) & set4);
        down_if_one5$d = down4 & ~kill4;
        down_if_zero5$d = down4 & set4;
        if (ram$read_data) begin
            bit5 = ~kill5$q;
            inc5 = change_if_one5$q;
            dec5 = down_if_one5$q;
        end
        else begin
            bit5 = set5$q;
            inc5 = change_if_zero5$q;
            dec5 = down_if_zero5$q;
        end
        change6$d = inc5 & ~scrub5$q;
        down6$d = dec5;
        addr3_wide$narrow = addr3$q;
        lt_hi4$d = addr3_wide$wide[(32'h8)+:(9)] < ptr3[(32'h8)+:(9)];
        eq_hi4$d = addr3_wide$wide[(32'h8)+:(9)] == ptr3[(32'h8)+:(9)];
        lt_lo4$d = addr3_wide$wide[(32'h0)+:(8)] < ptr3[(32'h0)+:(8)];
        below4 = lt_hi4$q | (eq_hi4$q & lt_lo4$q);
        sc5$d = (below4 & scrub_correction) | scrub4;
        scrub5$d = scrub4;
        sc_change6$d = inc5 & sc5$q;
        sc_down6$d = dec5 & sc5$q;
        if (down6$q) begin
            delta6 = count_upper;
        end
        else begin
            delta6 = count_zero;
        end
        if (change6$q) begin
            step6 = count_one;
        end
        else begin
            step6 = count_zero;
        end
        if (clear5) begin
            keep = count_zero;
        end
        else begin
            keep = count_all;
        end
        count$d = (count$q + (delta6 | step6)) & keep;
        if (sc_down6$q) begin
            sc_delta6 = count_upper;
        end
        else begin
            sc_delta6 = count_zero;
        end
        if (sc_change6$q) begin
            sc_step6 = count_one;
        end
        else begin
            sc_step6 = count_zero;
        end
        if (clear5 | scrub_zero5) begin
            sc_keep = count_zero;
        end
        else begin
            sc_keep = count_all;
        end
        scrub_count$d = (scrub_count$q + (sc_delta6 | sc_step6)) & sc_keep;
        compare$clock = clock;
        compare$reset = reset;
        compare$fill = count$q;
        compare$scrub_count = scrub_count$q;
        compare$finish = scrub_finish;
        compare$power_up = power_up;
        scrub_mismatch = compare$mismatch;
        if (~scrub_built) begin
            scrub_count$d = count_zero;
        end
        if (reset) begin
            up5$d = 1'b0;
            down5$d = 1'b0;
            change_if_one5$d = 1'b0;
            change_if_zero5$d = 1'b0;
            down_if_one5$d = 1'b0;
            down_if_zero5$d = 1'b0;
            change6$d = 1'b0;
            down6$d = 1'b0;
            count$d = count_zero;
            lt_hi4$d = 1'b0;
            eq_hi4$d = 1'b0;
            lt_lo4$d = 1'b0;
            sc5$d = 1'b0;
            scrub5$d = 1'b0;
            sc_change6$d = 1'b0;
            sc_down6$d = 1'b0;
        end
        write_addr_next = addr4$d;
        fill_low = count$q[(32'h0)+:(8)];
        fill_high = count$q[(32'h8)+:(9)];
    end
    
endmodule // bloom_core_parts_0


module bloom_core_parts_0_addr3(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_addr3


module bloom_core_parts_0_addr3_wide(narrow,wide);
    
    // Module arguments
    input wire  [15:0] narrow;
    output reg  [16:0] wide;
    
    // Update code (custom)
    always @(*) wide = {1'd0, narrow};
endmodule // bloom_core_parts_0_addr3_wide


module bloom_core_parts_0_addr4(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_addr4


module bloom_core_parts_0_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_change6


module bloom_core_parts_0_change_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_change_if_one5


module bloom_core_parts_0_change_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_change_if_zero5


module bloom_core_parts_0_compare(clock,reset,fill,scrub_count,finish,power_up,mismatch);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [16:0] fill;
    input wire  [16:0] scrub_count;
    input wire  finish;
    input wire  power_up;
    output reg  mismatch;
    
    // Constant declarations
    localparam  image_fill = 17'b0;
    localparam  built = 1'b0;
    
    // Stub signals
    reg  same_a$d;
    wire  same_a$q;
    reg  same_a$clock;
    reg  same_b$d;
    wire  same_b$q;
    reg  same_b$clock;
    reg  same_c$d;
    wire  same_c$q;
    reg  same_c$clock;
    reg  same_all$d;
    wire  same_all$q;
    reg  same_all$clock;
    reg  image_a$d;
    wire  image_a$q;
    reg  image_a$clock;
    reg  image_b$d;
    wire  image_b$q;
    reg  image_b$clock;
    reg  image_c$d;
    wire  image_c$q;
    reg  image_c$clock;
    reg  image_all$d;
    wire  image_all$q;
    reg  image_all$clock;
    reg  held$d;
    wire  held$q;
    reg  held$clock;
    
    // Sub module instances
    bloom_core_parts_0_compare_same_a same_a(
        .d(same_a$d),
        .q(same_a$q),
        .clock(same_a$clock)
    );
    bloom_core_parts_0_compare_same_b same_b(
        .d(same_b$d),
        .q(same_b$q),
        .clock(same_b$clock)
    );
    bloom_core_parts_0_compare_same_c same_c(
        .d(same_c$d),
        .q(same_c$q),
        .clock(same_c$clock)
    );
    bloom_core_parts_0_compare_same_all same_all(
        .d(same_all$d),
        .q(same_all$q),
        .clock(same_all$clock)
    );
    bloom_core_parts_0_compare_image_a image_a(
        .d(image_a$d),
        .q(image_a$q),
        .clock(image_a$clock)
    );
    bloom_core_parts_0_compare_image_b image_b(
        .d(image_b$d),
        .q(image_b$q),
        .clock(image_b$clock)
    );
    bloom_core_parts_0_compare_image_c image_c(
        .d(image_c$d),
        .q(image_c$q),
        .clock(image_c$clock)
    );
    bloom_core_parts_0_compare_image_all image_all(
        .d(image_all$d),
        .q(image_all$q),
        .clock(image_all$clock)
    );
    bloom_core_parts_0_compare_held held(
        .d(held$d),
        .q(held$q),
        .clock(held$clock)
    );
    
    // Update code
    always @(*) begin
        same_a$clock = clock;
        same_b$clock = clock;
        same_c$clock = clock;
        same_all$clock = clock;
        image_a$clock = clock;
        image_b$clock = clock;
        image_c$clock = clock;
        image_all$clock = clock;
        held$clock = clock;
        same_a$d = same_a$q;
        same_b$d = same_b$q;
        same_c$d = same_c$q;
        same_all$d = same_all$q;
        image_a$d = image_a$q;
        image_b$d = image_b$q;
        image_c$d = image_c$q;
        image_all$d = image_all$q;
        held$d = held$q;
        same_a$d = fill[(32'h0)+:(6)] == scrub_count[(32'h0)+:(6)];
        same_b$d = fill[(32'h6)+:(6)] == scrub_count[(32'h6)+:(6)];
        same_c$d = fill[(32'hc)+:(5)] == scrub_count[(32'hc)+:(5)];
        same_all$d = (same_a$q & same_b$q) & same_c$q;
        image_a$d = fill[(32'h0)+:(6)] == image_fill[(32'h0)+:(6)];
        image_b$d = fill[(32'h6)+:(6)] == image_fill[(32'h6)+:(6)];
        image_c$d = fill[(32'hc)+:(5)] == image_fill[(32'hc)+:(5)];
        image_all$d = (image_a$q & image_b$q) & image_c$q;
        if (finish) begin
            held$d = ~same_all$q;
        end
        else if (power_up) begin
            held$d = ~image_all$q;
        end
        if (~built) begin
            held$d = 1'b0;
        end
        if (reset) begin
            held$d = 1'b0;
        end
        mismatch = held$q;
    end
    
endmodule // bloom_core_parts_0_compare


module bloom_core_parts_0_compare_held(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_held


module bloom_core_parts_0_compare_image_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_image_a


module bloom_core_parts_0_compare_image_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_image_all


module bloom_core_parts_0_compare_image_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_image_b


module bloom_core_parts_0_compare_image_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_image_c


module bloom_core_parts_0_compare_same_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_same_a


module bloom_core_parts_0_compare_same_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_same_all


module bloom_core_parts_0_compare_same_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_same_b


module bloom_core_parts_0_compare_same_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_compare_same_c


module bloom_core_parts_0_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_count


module bloom_core_parts_0_down5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_down5


module bloom_core_parts_0_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_down6


module bloom_core_parts_0_down_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_down_if_one5


module bloom_core_parts_0_down_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_down_if_zero5


module bloom_core_parts_0_eq_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_eq_hi4


(* keep_hierarchy *)
module bloom_core_parts_0_hash(clock,key,stream,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    input wire  [255:0] stream;
    output reg  [15:0] addr;
    
    // Update code (custom)
    always @(*) addr = {4'h0, stream[11:0]};
    /* verilator lint_off UNUSED */
    wire unused_key = &{1'b0, key, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_stream = &{1'b0, stream, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_clock = &{1'b0, clock, 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_0_hash


module bloom_core_parts_0_kill5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_kill5


module bloom_core_parts_0_lt_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_lt_hi4


module bloom_core_parts_0_lt_lo4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_lt_lo4


module bloom_core_parts_0_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    `ifdef BLOOM_ICE40_BANK
    wire [3:0] bank_column = {write_addr[11], write_addr[0], write_addr[1], write_addr[2]};
    wire [15:0] bank_mask = ~(16'd1 << bank_column);
    wire [15:0] bank_rdata_0;
    SB_RAM40_4K #(
        .INIT_0(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_1(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_2(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_3(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_4(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_5(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_6(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_7(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_8(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_9(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_A(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_B(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_C(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_D(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_E(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_F(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .READ_MODE(3),
        .WRITE_MODE(0)
    ) \mem.0.0 (
        .RDATA(bank_rdata_0),
        .RCLK(clock),
        .RCLKE(1'b1),
        .RE(1'b1),
        .RADDR({read_addr[0], read_addr[1], read_addr[2], read_addr[10:3]}),
        .WCLK(clock),
        .WCLKE(1'b1),
        .WE(write_enable),
        .WADDR({3'b000, write_addr[10:3]}),
        .MASK(bank_mask),
        .WDATA({16{write_data}})
    );
    wire [1:0] bank_columns = {bank_rdata_0[11], bank_rdata_0[3]};
    reg [0:0] bank_read_column;
    always @(posedge clock) begin
        bank_read_column <= read_addr[11:11];
        read_data <= bank_columns[bank_read_column];
    end
    `else
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    // Initial contents (contract section 4): every bit 0, no 1 bits (empty filter). Synthesis sees only
    // the 1 bits; the FPGA tools write the others as 0 (see hdl/src/core/ram.rs).
    `ifndef SYNTHESIS
    reg [12:0] init_addr;
    `endif
    initial begin
    `ifndef SYNTHESIS
        for (init_addr = 13'd0; init_addr < 13'd4096; init_addr = init_addr + 13'd1) begin
            mem[init_addr[11:0]] = 1'b0;
        end
        read_raw = 1'b0;
        read_data = 1'b0;
    `endif
    end
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    `endif
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_0_ram


module bloom_core_parts_0_same_high4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_same_high4


module bloom_core_parts_0_same_low4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_same_low4


module bloom_core_parts_0_sc5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_sc5


module bloom_core_parts_0_sc_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_sc_change6


module bloom_core_parts_0_sc_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_sc_down6


module bloom_core_parts_0_scrub5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_scrub5


module bloom_core_parts_0_scrub_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_scrub_count


module bloom_core_parts_0_set5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_set5


module bloom_core_parts_0_up5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_0_up5


module bloom_core_parts_1(clock,reset,key1,stream2,is_rb2,rb_addr2,write4,wdata4,clear5,counted4,scrub4,ptr3,scrub_zero5,scrub_finish,power_up,sweep_en,sweep_en3,sweep_addr3,bit5,fill_low,fill_high,scrub_mismatch,write_addr_next);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  [255:0] stream2;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  [15:0] write4;
    input wire  wdata4;
    input wire  clear5;
    input wire  counted4;
    input wire  scrub4;
    input wire  [16:0] ptr3;
    input wire  scrub_zero5;
    input wire  scrub_finish;
    input wire  power_up;
    input wire  sweep_en;
    input wire  sweep_en3;
    input wire  [15:0] sweep_addr3;
    output reg  bit5;
    output reg  [7:0] fill_low;
    output reg  [8:0] fill_high;
    output reg  scrub_mismatch;
    output reg  [15:0] write_addr_next;
    
    // Constant declarations
    localparam  scrub_correction = 1'b1;
    localparam  scrub_built = 1'b0;
    localparam  forwarding_enabled = 1'b1;
    localparam  bank_select = 16'h2;
    localparam  count_zero = 17'b0;
    localparam  count_one = 17'b1;
    localparam  count_all = 17'b1111111111111;
    localparam  count_upper = 17'b1111111111110;
    localparam  address_mask_low = 16'hff;
    localparam  address_mask_high = 16'hf00;
    localparam  address_zero = 16'h0;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
    reg  [255:0] hash$stream;
    wire  [15:0] hash$addr;
    reg  ram$clock;
    reg  [15:0] ram$read_addr;
    wire  ram$read_data;
    reg  ram$write_enable;
    reg  [15:0] ram$write_addr;
    reg  ram$write_data;
    reg  [15:0] addr3$d;
    wire  [15:0] addr3$q;
    reg  addr3$clock;
    reg  [15:0] addr4$d;
    wire  [15:0] addr4$q;
    reg  addr4$clock;
    reg  same_low4$d;
    wire  same_low4$q;
    reg  same_low4$clock;
    reg  same_high4$d;
    wire  same_high4$q;
    reg  same_high4$clock;
    reg  up5$d;
    wire  up5$q;
    reg  up5$clock;
    reg  down5$d;
    wire  down5$q;
    reg  down5$clock;
    reg  set5$d;
    wire  set5$q;
    reg  set5$clock;
    reg  kill5$d;
    wire  kill5$q;
    reg  kill5$clock;
    reg  change_if_one5$d;
    wire  change_if_one5$q;
    reg  change_if_one5$clock;
    reg  change_if_zero5$d;
    wire  change_if_zero5$q;
    reg  change_if_zero5$clock;
    reg  down_if_one5$d;
    wire  down_if_one5$q;
    reg  down_if_one5$clock;
    reg  down_if_zero5$d;
    wire  down_if_zero5$q;
    reg  down_if_zero5$clock;
    reg  change6$d;
    wire  change6$q;
    reg  change6$clock;
    reg  down6$d;
    wire  down6$q;
    reg  down6$clock;
    reg  [16:0] count$d;
    wire  [16:0] count$q;
    reg  count$clock;
    reg  [15:0] addr3_wide$narrow;
    wire  [16:0] addr3_wide$wide;
    reg  lt_hi4$d;
    wire  lt_hi4$q;
    reg  lt_hi4$clock;
    reg  eq_hi4$d;
    wire  eq_hi4$q;
    reg  eq_hi4$clock;
    reg  lt_lo4$d;
    wire  lt_lo4$q;
    reg  lt_lo4$clock;
    reg  sc5$d;
    wire  sc5$q;
    reg  sc5$clock;
    reg  scrub5$d;
    wire  scrub5$q;
    reg  scrub5$clock;
    reg  sc_change6$d;
    wire  sc_change6$q;
    reg  sc_change6$clock;
    reg  sc_down6$d;
    wire  sc_down6$q;
    reg  sc_down6$clock;
    reg  [16:0] scrub_count$d;
    wire  [16:0] scrub_count$q;
    reg  scrub_count$clock;
    reg  compare$clock;
    reg  compare$reset;
    reg  [16:0] compare$fill;
    reg  [16:0] compare$scrub_count;
    reg  compare$finish;
    reg  compare$power_up;
    wire  compare$mismatch;
    
    // Local signals
    reg  [15:0] addr2;
    reg  up4;
    reg  down4;
    reg  kill4;
    reg  set4;
    reg  inc5;
    reg  dec5;
    reg  [16:0] delta6;
    reg  [16:0] step6;
    reg  [16:0] keep;
    reg  below4;
    reg  [16:0] sc_delta6;
    reg  [16:0] sc_step6;
    reg  [16:0] sc_keep;
    
    // Sub module instances
    bloom_core_parts_1_hash hash(
        .clock(hash$clock),
        .key(hash$key),
        .stream(hash$stream),
        .addr(hash$addr)
    );
    bloom_core_parts_1_ram ram(
        .clock(ram$clock),
        .read_addr(ram$read_addr),
        .read_data(ram$read_data),
        .write_enable(ram$write_enable),
        .write_addr(ram$write_addr),
        .write_data(ram$write_data)
    );
    bloom_core_parts_1_addr3 addr3(
        .d(addr3$d),
        .q(addr3$q),
        .clock(addr3$clock)
    );
    bloom_core_parts_1_addr4 addr4(
        .d(addr4$d),
        .q(addr4$q),
        .clock(addr4$clock)
    );
    bloom_core_parts_1_same_low4 same_low4(
        .d(same_low4$d),
        .q(same_low4$q),
        .clock(same_low4$clock)
    );
    bloom_core_parts_1_same_high4 same_high4(
        .d(same_high4$d),
        .q(same_high4$q),
        .clock(same_high4$clock)
    );
    bloom_core_parts_1_up5 up5(
        .d(up5$d),
        .q(up5$q),
        .clock(up5$clock)
    );
    bloom_core_parts_1_down5 down5(
        .d(down5$d),
        .q(down5$q),
        .clock(down5$clock)
    );
    bloom_core_parts_1_set5 set5(
        .d(set5$d),
        .q(set5$q),
        .clock(set5$clock)
    );
    bloom_core_parts_1_kill5 kill5(
        .d(kill5$d),
        .q(kill5$q),
        .clock(kill5$clock)
    );
    bloom_core_parts_1_change_if_one5 change_if_one5(
        .d(change_if_one5$d),
        .q(change_if_one5$q),
        .clock(change_if_one5$clock)
    );
    bloom_core_parts_1_change_if_zero5 change_if_zero5(
        .d(change_if_zero5$d),
        .q(change_if_zero5$q),
        .clock(change_if_zero5$clock)
    );
    bloom_core_parts_1_down_if_one5 down_if_one5(
        .d(down_if_one5$d),
        .q(down_if_one5$q),
        .clock(down_if_one5$clock)
    );
    bloom_core_parts_1_down_if_zero5 down_if_zero5(
        .d(down_if_zero5$d),
        .q(down_if_zero5$q),
        .clock(down_if_zero5$clock)
    );
    bloom_core_parts_1_change6 change6(
        .d(change6$d),
        .q(change6$q),
        .clock(change6$clock)
    );
    bloom_core_parts_1_down6 down6(
        .d(down6$d),
        .q(down6$q),
        .clock(down6$clock)
    );
    bloom_core_parts_1_count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    bloom_core_parts_1_addr3_wide addr3_wide(
        .narrow(addr3_wide$narrow),
        .wide(addr3_wide$wide)
    );
    bloom_core_parts_1_lt_hi4 lt_hi4(
        .d(lt_hi4$d),
        .q(lt_hi4$q),
        .clock(lt_hi4$clock)
    );
    bloom_core_parts_1_eq_hi4 eq_hi4(
        .d(eq_hi4$d),
        .q(eq_hi4$q),
        .clock(eq_hi4$clock)
    );
    bloom_core_parts_1_lt_lo4 lt_lo4(
        .d(lt_lo4$d),
        .q(lt_lo4$q),
        .clock(lt_lo4$clock)
    );
    bloom_core_parts_1_sc5 sc5(
        .d(sc5$d),
        .q(sc5$q),
        .clock(sc5$clock)
    );
    bloom_core_parts_1_scrub5 scrub5(
        .d(scrub5$d),
        .q(scrub5$q),
        .clock(scrub5$clock)
    );
    bloom_core_parts_1_sc_change6 sc_change6(
        .d(sc_change6$d),
        .q(sc_change6$q),
        .clock(sc_change6$clock)
    );
    bloom_core_parts_1_sc_down6 sc_down6(
        .d(sc_down6$d),
        .q(sc_down6$q),
        .clock(sc_down6$clock)
    );
    bloom_core_parts_1_scrub_count scrub_count(
        .d(scrub_count$d),
        .q(scrub_count$q),
        .clock(scrub_count$clock)
    );
    bloom_core_parts_1_compare compare(
        .clock(compare$clock),
        .reset(compare$reset),
        .fill(compare$fill),
        .scrub_count(compare$scrub_count),
        .finish(compare$finish),
        .power_up(compare$power_up),
        .mismatch(compare$mismatch)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        same_low4$clock = clock;
        same_high4$clock = clock;
        up5$clock = clock;
        down5$clock = clock;
        set5$clock = clock;
        kill5$clock = clock;
        change6$clock = clock;
        down6$clock = clock;
        count$clock = clock;
        change_if_one5$clock = clock;
        change_if_zero5$clock = clock;
        down_if_one5$clock = clock;
        down_if_zero5$clock = clock;
        lt_hi4$clock = clock;
        eq_hi4$clock = clock;
        lt_lo4$clock = clock;
        sc5$clock = clock;
        scrub5$clock = clock;
        sc_change6$clock = clock;
        sc_down6$clock = clock;
        scrub_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        same_low4$d = same_low4$q;
        same_high4$d = same_high4$q;
        up5$d = up5$q;
        down5$d = down5$q;
        set5$d = set5$q;
        kill5$d = kill5$q;
        change6$d = change6$q;
        down6$d = down6$q;
        count$d = count$q;
        change_if_one5$d = change_if_one5$q;
        change_if_zero5$d = change_if_zero5$q;
        down_if_one5$d = down_if_one5$q;
        down_if_zero5$d = down_if_zero5$q;
        lt_hi4$d = lt_hi4$q;
        eq_hi4$d = eq_hi4$q;
        lt_lo4$d = lt_lo4$q;
        sc5$d = sc5$q;
        scrub5$d = scrub5$q;
        sc_change6$d = sc_change6$q;
        sc_down6$d = sc_down6$q;
        scrub_count$d = scrub_count$q;
        hash$clock = clock;
        hash$key = key1;
        hash$stream = stream2;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        if (sweep_en3) begin
            addr4$d = sweep_addr3;
        end
        else begin
            addr4$d = addr3$q;
        end
        same_low4$d = ((addr3$q ^ addr4$q) & address_mask_low) == address_zero;
        same_high4$d = ((addr3$q ^ addr4$q) & address_mask_high) == address_zero;
        ram$write_enable = (write4 & bank_select) != address_zero;
        ram$write_addr = addr4$q;
        ram$write_data = wdata4;
        up4 = ((write4 & bank_select) != address_zero) & wdata4;
        down4 = ((write4 & bank_select) != address_zero) & ~(wdata4 | sweep_en);
        up5$d = up4;
        down5$d = down4;
        set4 = (forwarding_enabled & up5$q) & (same_low4$q & same_high4$q);
        kill4 = (forwarding_enabled & down5$q) & (same_low4$q & same_high4$q);
        set5$d = set4;
        kill5$d = kill4;
        change_if_one5$d = ((up4 & kill4) | ((down4 | scrub4) & ~kill4)) | (counted4 & ~scrub4);
        change_if_zero5$d = (up4 & ~set4) | ((down4 | scrub4) & set4);
        down_if_one5$d = down4 & ~kill4;
        down_if_zero5$d = down4 & set4;
        if (ram$read_data) begin
            bit5 = ~kill5$q;
            inc5 = change_if_one5$q;
            dec5 = down_if_one5$q;
        end
        else begin
            bit5 = set5$q;
            inc5 = change_if_zero5$q;
            dec5 = down_if_zero5$q;
        end
        change6$d = inc5 & ~scrub5$q;
        down6$d = dec5;
        addr3_wide$narrow = addr3$q;
        lt_hi4$d = addr3_wide$wide[(32'h8)+:(9)] < ptr3[(32'h8)+:(9)];
        eq_hi4$d = addr3_wide$wide[(32'h8)+:(9)] == ptr3[(32'h8)+:(9)];
        lt_lo4$d = addr3_wide$wide[(32'h0)+:(8)] < ptr3[(32'h0)+:(8)];
        below4 = lt_hi4$q | (eq_hi4$q & lt_lo4$q);
        sc5$d = (below4 & scrub_correction) | scrub4;
        scrub5$d = scrub4;
        sc_change6$d = inc5 & sc5$q;
        sc_down6$d = dec5 & sc5$q;
        if (down6$q) begin
            delta6 = count_upper;
        end
        else begin
            delta6 = count_zero;
        end
        if (change6$q) begin
            step6 = count_one;
        end
        else begin
            step6 = count_zero;
        end
        if (clear5) begin
            keep = count_zero;
        end
        else begin
            keep = count_all;
        end
        count$d = (count$q + (delta6 | step6)) & keep;
        if (sc_down6$q) begin
            sc_delta6 = count_upper;
        end
        else begin
            sc_delta6 = count_zero;
        end
        if (sc_change6$q) begin
            sc_step6 = count_one;
        end
        else begin
            sc_step6 = count_zero;
        end
        if (clear5 | scrub_zero5) begin
            sc_keep = count_zero;
        end
        else begin
            sc_keep = count_all;
        end
        scrub_count$d = (scrub_count$q + (sc_delta6 | sc_step6)) & sc_keep;
        compare$clock = clock;
        compare$reset = reset;
        compare$fill = count$q;
        compare$scrub_count = scrub_count$q;
        compare$finish = scrub_finish;
        compare$power_up = power_up;
        scrub_mismatch = compare$mismatch;
        if (~scrub_built) begin
            scrub_count$d = count_zero;
        end
        if (reset) begin
            up5$d = 1'b0;
            down5$d = 1'b0;
            change_if_one5$d = 1'b0;
            change_if_zero5$d = 1'b0;
            down_if_one5$d = 1'b0;
            down_if_zero5$d = 1'b0;
            change6$d = 1'b0;
            down6$d = 1'b0;
            count$d = count_zero;
            lt_hi4$d = 1'b0;
            eq_hi4$d = 1'b0;
            lt_lo4$d = 1'b0;
            sc5$d = 1'b0;
            scrub5$d = 1'b0;
            sc_change6$d = 1'b0;
            sc_down6$d = 1'b0;
        end
        write_addr_next = addr4$d;
        fill_low = count$q[(32'h0)+:(8)];
        fill_high = count$q[(32'h8)+:(9)];
    end
    
endmodule // bloom_core_parts_1


module bloom_core_parts_1_addr3(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_addr3


module bloom_core_parts_1_addr3_wide(narrow,wide);
    
    // Module arguments
    input wire  [15:0] narrow;
    output reg  [16:0] wide;
    
    // Update code (custom)
    always @(*) wide = {1'd0, narrow};
endmodule // bloom_core_parts_1_addr3_wide


module bloom_core_parts_1_addr4(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_addr4


module bloom_core_parts_1_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_change6


module bloom_core_parts_1_change_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_change_if_one5


module bloom_core_parts_1_change_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_change_if_zero5


module bloom_core_parts_1_compare(clock,reset,fill,scrub_count,finish,power_up,mismatch);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [16:0] fill;
    input wire  [16:0] scrub_count;
    input wire  finish;
    input wire  power_up;
    output reg  mismatch;
    
    // Constant declarations
    localparam  image_fill = 17'b0;
    localparam  built = 1'b0;
    
    // Stub signals
    reg  same_a$d;
    wire  same_a$q;
    reg  same_a$clock;
    reg  same_b$d;
    wire  same_b$q;
    reg  same_b$clock;
    reg  same_c$d;
    wire  same_c$q;
    reg  same_c$clock;
    reg  same_all$d;
    wire  same_all$q;
    reg  same_all$clock;
    reg  image_a$d;
    wire  image_a$q;
    reg  image_a$clock;
    reg  image_b$d;
    wire  image_b$q;
    reg  image_b$clock;
    reg  image_c$d;
    wire  image_c$q;
    reg  image_c$clock;
    reg  image_all$d;
    wire  image_all$q;
    reg  image_all$clock;
    reg  held$d;
    wire  held$q;
    reg  held$clock;
    
    // Sub module instances
    bloom_core_parts_1_compare_same_a same_a(
        .d(same_a$d),
        .q(same_a$q),
        .clock(same_a$clock)
    );
    bloom_core_parts_1_compare_same_b same_b(
        .d(same_b$d),
        .q(same_b$q),
        .clock(same_b$clock)
    );
    bloom_core_parts_1_compare_same_c same_c(
        .d(same_c$d),
        .q(same_c$q),
        .clock(same_c$clock)
    );
    bloom_core_parts_1_compare_same_all same_all(
        .d(same_all$d),
        .q(same_all$q),
        .clock(same_all$clock)
    );
    bloom_core_parts_1_compare_image_a image_a(
        .d(image_a$d),
        .q(image_a$q),
        .clock(image_a$clock)
    );
    bloom_core_parts_1_compare_image_b image_b(
        .d(image_b$d),
        .q(image_b$q),
        .clock(image_b$clock)
    );
    bloom_core_parts_1_compare_image_c image_c(
        .d(image_c$d),
        .q(image_c$q),
        .clock(image_c$clock)
    );
    bloom_core_parts_1_compare_image_all image_all(
        .d(image_all$d),
        .q(image_all$q),
        .clock(image_all$clock)
    );
    bloom_core_parts_1_compare_held held(
        .d(held$d),
        .q(held$q),
        .clock(held$clock)
    );
    
    // Update code
    always @(*) begin
        same_a$clock = clock;
        same_b$clock = clock;
        same_c$clock = clock;
        same_all$clock = clock;
        image_a$clock = clock;
        image_b$clock = clock;
        image_c$clock = clock;
        image_all$clock = clock;
        held$clock = clock;
        same_a$d = same_a$q;
        same_b$d = same_b$q;
        same_c$d = same_c$q;
        same_all$d = same_all$q;
        image_a$d = image_a$q;
        image_b$d = image_b$q;
        image_c$d = image_c$q;
        image_all$d = image_all$q;
        held$d = held$q;
        same_a$d = fill[(32'h0)+:(6)] == scrub_count[(32'h0)+:(6)];
        same_b$d = fill[(32'h6)+:(6)] == scrub_count[(32'h6)+:(6)];
        same_c$d = fill[(32'hc)+:(5)] == scrub_count[(32'hc)+:(5)];
        same_all$d = (same_a$q & same_b$q) & same_c$q;
        image_a$d = fill[(32'h0)+:(6)] == image_fill[(32'h0)+:(6)];
        image_b$d = fill[(32'h6)+:(6)] == image_fill[(32'h6)+:(6)];
        image_c$d = fill[(32'hc)+:(5)] == image_fill[(32'hc)+:(5)];
        image_all$d = (image_a$q & image_b$q) & image_c$q;
        if (finish) begin
            held$d = ~same_all$q;
        end
        else if (power_up) begin
            held$d = ~image_all$q;
        end
        if (~built) begin
            held$d = 1'b0;
        end
        if (reset) begin
            held$d = 1'b0;
        end
        mismatch = held$q;
    end
    
endmodule // bloom_core_parts_1_compare


module bloom_core_parts_1_compare_held(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_held


module bloom_core_parts_1_compare_image_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_image_a


module bloom_core_parts_1_compare_image_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_image_all


module bloom_core_parts_1_compare_image_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_image_b


module bloom_core_parts_1_compare_image_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_image_c


module bloom_core_parts_1_compare_same_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_same_a


module bloom_core_parts_1_compare_same_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_same_all


module bloom_core_parts_1_compare_same_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_same_b


module bloom_core_parts_1_compare_same_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_compare_same_c


module bloom_core_parts_1_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_count


module bloom_core_parts_1_down5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_down5


module bloom_core_parts_1_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_down6


module bloom_core_parts_1_down_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_down_if_one5


module bloom_core_parts_1_down_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_down_if_zero5


module bloom_core_parts_1_eq_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_eq_hi4


(* keep_hierarchy *)
module bloom_core_parts_1_hash(clock,key,stream,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    input wire  [255:0] stream;
    output reg  [15:0] addr;
    
    // Update code (custom)
    always @(*) addr = {4'h0, stream[23:12]};
    /* verilator lint_off UNUSED */
    wire unused_key = &{1'b0, key, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_stream = &{1'b0, stream, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_clock = &{1'b0, clock, 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_1_hash


module bloom_core_parts_1_kill5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_kill5


module bloom_core_parts_1_lt_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_lt_hi4


module bloom_core_parts_1_lt_lo4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_lt_lo4


module bloom_core_parts_1_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    `ifdef BLOOM_ICE40_BANK
    wire [3:0] bank_column = {write_addr[11], write_addr[0], write_addr[1], write_addr[2]};
    wire [15:0] bank_mask = ~(16'd1 << bank_column);
    wire [15:0] bank_rdata_0;
    SB_RAM40_4K #(
        .INIT_0(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_1(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_2(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_3(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_4(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_5(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_6(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_7(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_8(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_9(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_A(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_B(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_C(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_D(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_E(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_F(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .READ_MODE(3),
        .WRITE_MODE(0)
    ) \mem.0.0 (
        .RDATA(bank_rdata_0),
        .RCLK(clock),
        .RCLKE(1'b1),
        .RE(1'b1),
        .RADDR({read_addr[0], read_addr[1], read_addr[2], read_addr[10:3]}),
        .WCLK(clock),
        .WCLKE(1'b1),
        .WE(write_enable),
        .WADDR({3'b000, write_addr[10:3]}),
        .MASK(bank_mask),
        .WDATA({16{write_data}})
    );
    wire [1:0] bank_columns = {bank_rdata_0[11], bank_rdata_0[3]};
    reg [0:0] bank_read_column;
    always @(posedge clock) begin
        bank_read_column <= read_addr[11:11];
        read_data <= bank_columns[bank_read_column];
    end
    `else
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    // Initial contents (contract section 4): every bit 0, no 1 bits (empty filter). Synthesis sees only
    // the 1 bits; the FPGA tools write the others as 0 (see hdl/src/core/ram.rs).
    `ifndef SYNTHESIS
    reg [12:0] init_addr;
    `endif
    initial begin
    `ifndef SYNTHESIS
        for (init_addr = 13'd0; init_addr < 13'd4096; init_addr = init_addr + 13'd1) begin
            mem[init_addr[11:0]] = 1'b0;
        end
        read_raw = 1'b0;
        read_data = 1'b0;
    `endif
    end
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    `endif
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_1_ram


module bloom_core_parts_1_same_high4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_same_high4


module bloom_core_parts_1_same_low4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_same_low4


module bloom_core_parts_1_sc5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_sc5


module bloom_core_parts_1_sc_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_sc_change6


module bloom_core_parts_1_sc_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_sc_down6


module bloom_core_parts_1_scrub5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_scrub5


module bloom_core_parts_1_scrub_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_scrub_count


module bloom_core_parts_1_set5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_set5


module bloom_core_parts_1_up5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_1_up5


module bloom_core_parts_2(clock,reset,key1,stream2,is_rb2,rb_addr2,write4,wdata4,clear5,counted4,scrub4,ptr3,scrub_zero5,scrub_finish,power_up,sweep_en,sweep_en3,sweep_addr3,bit5,fill_low,fill_high,scrub_mismatch,write_addr_next);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  [255:0] stream2;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  [15:0] write4;
    input wire  wdata4;
    input wire  clear5;
    input wire  counted4;
    input wire  scrub4;
    input wire  [16:0] ptr3;
    input wire  scrub_zero5;
    input wire  scrub_finish;
    input wire  power_up;
    input wire  sweep_en;
    input wire  sweep_en3;
    input wire  [15:0] sweep_addr3;
    output reg  bit5;
    output reg  [7:0] fill_low;
    output reg  [8:0] fill_high;
    output reg  scrub_mismatch;
    output reg  [15:0] write_addr_next;
    
    // Constant declarations
    localparam  scrub_correction = 1'b1;
    localparam  scrub_built = 1'b0;
    localparam  forwarding_enabled = 1'b1;
    localparam  bank_select = 16'h4;
    localparam  count_zero = 17'b0;
    localparam  count_one = 17'b1;
    localparam  count_all = 17'b1111111111111;
    localparam  count_upper = 17'b1111111111110;
    localparam  address_mask_low = 16'hff;
    localparam  address_mask_high = 16'hf00;
    localparam  address_zero = 16'h0;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
    reg  [255:0] hash$stream;
    wire  [15:0] hash$addr;
    reg  ram$clock;
    reg  [15:0] ram$read_addr;
    wire  ram$read_data;
    reg  ram$write_enable;
    reg  [15:0] ram$write_addr;
    reg  ram$write_data;
    reg  [15:0] addr3$d;
    wire  [15:0] addr3$q;
    reg  addr3$clock;
    reg  [15:0] addr4$d;
    wire  [15:0] addr4$q;
    reg  addr4$clock;
    reg  same_low4$d;
    wire  same_low4$q;
    reg  same_low4$clock;
    reg  same_high4$d;
    wire  same_high4$q;
    reg  same_high4$clock;
    reg  up5$d;
    wire  up5$q;
    reg  up5$clock;
    reg  down5$d;
    wire  down5$q;
    reg  down5$clock;
    reg  set5$d;
    wire  set5$q;
    reg  set5$clock;
    reg  kill5$d;
    wire  kill5$q;
    reg  kill5$clock;
    reg  change_if_one5$d;
    wire  change_if_one5$q;
    reg  change_if_one5$clock;
    reg  change_if_zero5$d;
    wire  change_if_zero5$q;
    reg  change_if_zero5$clock;
    reg  down_if_one5$d;
    wire  down_if_one5$q;
    reg  down_if_one5$clock;
    reg  down_if_zero5$d;
    wire  down_if_zero5$q;
    reg  down_if_zero5$clock;
    reg  change6$d;
    wire  change6$q;
    reg  change6$clock;
    reg  down6$d;
    wire  down6$q;
    reg  down6$clock;
    reg  [16:0] count$d;
    wire  [16:0] count$q;
    reg  count$clock;
    reg  [15:0] addr3_wide$narrow;
    wire  [16:0] addr3_wide$wide;
    reg  lt_hi4$d;
    wire  lt_hi4$q;
    reg  lt_hi4$clock;
    reg  eq_hi4$d;
    wire  eq_hi4$q;
    reg  eq_hi4$clock;
    reg  lt_lo4$d;
    wire  lt_lo4$q;
    reg  lt_lo4$clock;
    reg  sc5$d;
    wire  sc5$q;
    reg  sc5$clock;
    reg  scrub5$d;
    wire  scrub5$q;
    reg  scrub5$clock;
    reg  sc_change6$d;
    wire  sc_change6$q;
    reg  sc_change6$clock;
    reg  sc_down6$d;
    wire  sc_down6$q;
    reg  sc_down6$clock;
    reg  [16:0] scrub_count$d;
    wire  [16:0] scrub_count$q;
    reg  scrub_count$clock;
    reg  compare$clock;
    reg  compare$reset;
    reg  [16:0] compare$fill;
    reg  [16:0] compare$scrub_count;
    reg  compare$finish;
    reg  compare$power_up;
    wire  compare$mismatch;
    
    // Local signals
    reg  [15:0] addr2;
    reg  up4;
    reg  down4;
    reg  kill4;
    reg  set4;
    reg  inc5;
    reg  dec5;
    reg  [16:0] delta6;
    reg  [16:0] step6;
    reg  [16:0] keep;
    reg  below4;
    reg  [16:0] sc_delta6;
    reg  [16:0] sc_step6;
    reg  [16:0] sc_keep;
    
    // Sub module instances
    bloom_core_parts_2_hash hash(
        .clock(hash$clock),
        .key(hash$key),
        .stream(hash$stream),
        .addr(hash$addr)
    );
    bloom_core_parts_2_ram ram(
        .clock(ram$clock),
        .read_addr(ram$read_addr),
        .read_data(ram$read_data),
        .write_enable(ram$write_enable),
        .write_addr(ram$write_addr),
        .write_data(ram$write_data)
    );
    bloom_core_parts_2_addr3 addr3(
        .d(addr3$d),
        .q(addr3$q),
        .clock(addr3$clock)
    );
    bloom_core_parts_2_addr4 addr4(
        .d(addr4$d),
        .q(addr4$q),
        .clock(addr4$clock)
    );
    bloom_core_parts_2_same_low4 same_low4(
        .d(same_low4$d),
        .q(same_low4$q),
        .clock(same_low4$clock)
    );
    bloom_core_parts_2_same_high4 same_high4(
        .d(same_high4$d),
        .q(same_high4$q),
        .clock(same_high4$clock)
    );
    bloom_core_parts_2_up5 up5(
        .d(up5$d),
        .q(up5$q),
        .clock(up5$clock)
    );
    bloom_core_parts_2_down5 down5(
        .d(down5$d),
        .q(down5$q),
        .clock(down5$clock)
    );
    bloom_core_parts_2_set5 set5(
        .d(set5$d),
        .q(set5$q),
        .clock(set5$clock)
    );
    bloom_core_parts_2_kill5 kill5(
        .d(kill5$d),
        .q(kill5$q),
        .clock(kill5$clock)
    );
    bloom_core_parts_2_change_if_one5 change_if_one5(
        .d(change_if_one5$d),
        .q(change_if_one5$q),
        .clock(change_if_one5$clock)
    );
    bloom_core_parts_2_change_if_zero5 change_if_zero5(
        .d(change_if_zero5$d),
        .q(change_if_zero5$q),
        .clock(change_if_zero5$clock)
    );
    bloom_core_parts_2_down_if_one5 down_if_one5(
        .d(down_if_one5$d),
        .q(down_if_one5$q),
        .clock(down_if_one5$clock)
    );
    bloom_core_parts_2_down_if_zero5 down_if_zero5(
        .d(down_if_zero5$d),
        .q(down_if_zero5$q),
        .clock(down_if_zero5$clock)
    );
    bloom_core_parts_2_change6 change6(
        .d(change6$d),
        .q(change6$q),
        .clock(change6$clock)
    );
    bloom_core_parts_2_down6 down6(
        .d(down6$d),
        .q(down6$q),
        .clock(down6$clock)
    );
    bloom_core_parts_2_count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    bloom_core_parts_2_addr3_wide addr3_wide(
        .narrow(addr3_wide$narrow),
        .wide(addr3_wide$wide)
    );
    bloom_core_parts_2_lt_hi4 lt_hi4(
        .d(lt_hi4$d),
        .q(lt_hi4$q),
        .clock(lt_hi4$clock)
    );
    bloom_core_parts_2_eq_hi4 eq_hi4(
        .d(eq_hi4$d),
        .q(eq_hi4$q),
        .clock(eq_hi4$clock)
    );
    bloom_core_parts_2_lt_lo4 lt_lo4(
        .d(lt_lo4$d),
        .q(lt_lo4$q),
        .clock(lt_lo4$clock)
    );
    bloom_core_parts_2_sc5 sc5(
        .d(sc5$d),
        .q(sc5$q),
        .clock(sc5$clock)
    );
    bloom_core_parts_2_scrub5 scrub5(
        .d(scrub5$d),
        .q(scrub5$q),
        .clock(scrub5$clock)
    );
    bloom_core_parts_2_sc_change6 sc_change6(
        .d(sc_change6$d),
        .q(sc_change6$q),
        .clock(sc_change6$clock)
    );
    bloom_core_parts_2_sc_down6 sc_down6(
        .d(sc_down6$d),
        .q(sc_down6$q),
        .clock(sc_down6$clock)
    );
    bloom_core_parts_2_scrub_count scrub_count(
        .d(scrub_count$d),
        .q(scrub_count$q),
        .clock(scrub_count$clock)
    );
    bloom_core_parts_2_compare compare(
        .clock(compare$clock),
        .reset(compare$reset),
        .fill(compare$fill),
        .scrub_count(compare$scrub_count),
        .finish(compare$finish),
        .power_up(compare$power_up),
        .mismatch(compare$mismatch)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        same_low4$clock = clock;
        same_high4$clock = clock;
        up5$clock = clock;
        down5$clock = clock;
        set5$clock = clock;
        kill5$clock = clock;
        change6$clock = clock;
        down6$clock = clock;
        count$clock = clock;
        change_if_one5$clock = clock;
        change_if_zero5$clock = clock;
        down_if_one5$clock = clock;
        down_if_zero5$clock = clock;
        lt_hi4$clock = clock;
        eq_hi4$clock = clock;
        lt_lo4$clock = clock;
        sc5$clock = clock;
        scrub5$clock = clock;
        sc_change6$clock = clock;
        sc_down6$clock = clock;
        scrub_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        same_low4$d = same_low4$q;
        same_high4$d = same_high4$q;
        up5$d = up5$q;
        down5$d = down5$q;
        set5$d = set5$q;
        kill5$d = kill5$q;
        change6$d = change6$q;
        down6$d = down6$q;
        count$d = count$q;
        change_if_one5$d = change_if_one5$q;
        change_if_zero5$d = change_if_zero5$q;
        down_if_one5$d = down_if_one5$q;
        down_if_zero5$d = down_if_zero5$q;
        lt_hi4$d = lt_hi4$q;
        eq_hi4$d = eq_hi4$q;
        lt_lo4$d = lt_lo4$q;
        sc5$d = sc5$q;
        scrub5$d = scrub5$q;
        sc_change6$d = sc_change6$q;
        sc_down6$d = sc_down6$q;
        scrub_count$d = scrub_count$q;
        hash$clock = clock;
        hash$key = key1;
        hash$stream = stream2;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        if (sweep_en3) begin
            addr4$d = sweep_addr3;
        end
        else begin
            addr4$d = addr3$q;
        end
        same_low4$d = ((addr3$q ^ addr4$q) & address_mask_low) == address_zero;
        same_high4$d = ((addr3$q ^ addr4$q) & address_mask_high) == address_zero;
        ram$write_enable = (write4 & bank_select) != address_zero;
        ram$write_addr = addr4$q;
        ram$write_data = wdata4;
        up4 = ((write4 & bank_select) != address_zero) & wdata4;
        down4 = ((write4 & bank_select) != address_zero) & ~(wdata4 | sweep_en);
        up5$d = up4;
        down5$d = down4;
        set4 = (forwarding_enabled & up5$q) & (same_low4$q & same_high4$q);
        kill4 = (forwarding_enabled & down5$q) & (same_low4$q & same_high4$q);
        set5$d = set4;
        kill5$d = kill4;
        change_if_one5$d = ((up4 & kill4) | ((down4 | scrub4) & ~kill4)) | (counted4 & ~scrub4);
        change_if_zero5$d = (up4 & ~set4) | ((down4 | scrub4) & set4);
        down_if_one5$d = down4 & ~kill4;
        down_if_zero5$d = down4 & set4;
        if (ram$read_data) begin
            bit5 = ~kill5$q;
            inc5 = change_if_one5$q;
            dec5 = down_if_one5$q;
        end
        else begin
            bit5 = set5$q;
            inc5 = change_if_zero5$q;
            dec5 = down_if_zero5$q;
        end
        change6$d = inc5 & ~scrub5$q;
        down6$d = dec5;
        addr3_wide$narrow = addr3$q;
        lt_hi4$d = addr3_wide$wide[(32'h8)+:(9)] < ptr3[(32'h8)+:(9)];
        eq_hi4$d = addr3_wide$wide[(32'h8)+:(9)] == ptr3[(32'h8)+:(9)];
        lt_lo4$d = addr3_wide$wide[(32'h0)+:(8)] < ptr3[(32'h0)+:(8)];
        below4 = lt_hi4$q | (eq_hi4$q & lt_lo4$q);
        sc5$d = (below4 & scrub_correction) | scrub4;
        scrub5$d = scrub4;
        sc_change6$d = inc5 & sc5$q;
        sc_down6$d = dec5 & sc5$q;
        if (down6$q) begin
            delta6 = count_upper;
        end
        else begin
            delta6 = count_zero;
        end
        if (change6$q) begin
            step6 = count_one;
        end
        else begin
            step6 = count_zero;
        end
        if (clear5) begin
            keep = count_zero;
        end
        else begin
            keep = count_all;
        end
        count$d = (count$q + (delta6 | step6)) & keep;
        if (sc_down6$q) begin
            sc_delta6 = count_upper;
        end
        else begin
            sc_delta6 = count_zero;
        end
        if (sc_change6$q) begin
            sc_step6 = count_one;
        end
        else begin
            sc_step6 = count_zero;
        end
        if (clear5 | scrub_zero5) begin
            sc_keep = count_zero;
        end
        else begin
            sc_keep = count_all;
        end
        scrub_count$d = (scrub_count$q + (sc_delta6 | sc_step6)) & sc_keep;
        compare$clock = clock;
        compare$reset = reset;
        compare$fill = count$q;
        compare$scrub_count = scrub_count$q;
        compare$finish = scrub_finish;
        compare$power_up = power_up;
        scrub_mismatch = compare$mismatch;
        if (~scrub_built) begin
            scrub_count$d = count_zero;
        end
        if (reset) begin
            up5$d = 1'b0;
            down5$d = 1'b0;
            change_if_one5$d = 1'b0;
            change_if_zero5$d = 1'b0;
            down_if_one5$d = 1'b0;
            down_if_zero5$d = 1'b0;
            change6$d = 1'b0;
            down6$d = 1'b0;
            count$d = count_zero;
            lt_hi4$d = 1'b0;
            eq_hi4$d = 1'b0;
            lt_lo4$d = 1'b0;
            sc5$d = 1'b0;
            scrub5$d = 1'b0;
            sc_change6$d = 1'b0;
            sc_down6$d = 1'b0;
        end
        write_addr_next = addr4$d;
        fill_low = count$q[(32'h0)+:(8)];
        fill_high = count$q[(32'h8)+:(9)];
    end
    
endmodule // bloom_core_parts_2


module bloom_core_parts_2_addr3(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_addr3


module bloom_core_parts_2_addr3_wide(narrow,wide);
    
    // Module arguments
    input wire  [15:0] narrow;
    output reg  [16:0] wide;
    
    // Update code (custom)
    always @(*) wide = {1'd0, narrow};
endmodule // bloom_core_parts_2_addr3_wide


module bloom_core_parts_2_addr4(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_addr4


module bloom_core_parts_2_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_change6


module bloom_core_parts_2_change_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_change_if_one5


module bloom_core_parts_2_change_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_change_if_zero5


module bloom_core_parts_2_compare(clock,reset,fill,scrub_count,finish,power_up,mismatch);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [16:0] fill;
    input wire  [16:0] scrub_count;
    input wire  finish;
    input wire  power_up;
    output reg  mismatch;
    
    // Constant declarations
    localparam  image_fill = 17'b0;
    localparam  built = 1'b0;
    
    // Stub signals
    reg  same_a$d;
    wire  same_a$q;
    reg  same_a$clock;
    reg  same_b$d;
    wire  same_b$q;
    reg  same_b$clock;
    reg  same_c$d;
    wire  same_c$q;
    reg  same_c$clock;
    reg  same_all$d;
    wire  same_all$q;
    reg  same_all$clock;
    reg  image_a$d;
    wire  image_a$q;
    reg  image_a$clock;
    reg  image_b$d;
    wire  image_b$q;
    reg  image_b$clock;
    reg  image_c$d;
    wire  image_c$q;
    reg  image_c$clock;
    reg  image_all$d;
    wire  image_all$q;
    reg  image_all$clock;
    reg  held$d;
    wire  held$q;
    reg  held$clock;
    
    // Sub module instances
    bloom_core_parts_2_compare_same_a same_a(
        .d(same_a$d),
        .q(same_a$q),
        .clock(same_a$clock)
    );
    bloom_core_parts_2_compare_same_b same_b(
        .d(same_b$d),
        .q(same_b$q),
        .clock(same_b$clock)
    );
    bloom_core_parts_2_compare_same_c same_c(
        .d(same_c$d),
        .q(same_c$q),
        .clock(same_c$clock)
    );
    bloom_core_parts_2_compare_same_all same_all(
        .d(same_all$d),
        .q(same_all$q),
        .clock(same_all$clock)
    );
    bloom_core_parts_2_compare_image_a image_a(
        .d(image_a$d),
        .q(image_a$q),
        .clock(image_a$clock)
    );
    bloom_core_parts_2_compare_image_b image_b(
        .d(image_b$d),
        .q(image_b$q),
        .clock(image_b$clock)
    );
    bloom_core_parts_2_compare_image_c image_c(
        .d(image_c$d),
        .q(image_c$q),
        .clock(image_c$clock)
    );
    bloom_core_parts_2_compare_image_all image_all(
        .d(image_all$d),
        .q(image_all$q),
        .clock(image_all$clock)
    );
    bloom_core_parts_2_compare_held held(
        .d(held$d),
        .q(held$q),
        .clock(held$clock)
    );
    
    // Update code
    always @(*) begin
        same_a$clock = clock;
        same_b$clock = clock;
        same_c$clock = clock;
        same_all$clock = clock;
        image_a$clock = clock;
        image_b$clock = clock;
        image_c$clock = clock;
        image_all$clock = clock;
        held$clock = clock;
        same_a$d = same_a$q;
        same_b$d = same_b$q;
        same_c$d = same_c$q;
        same_all$d = same_all$q;
        image_a$d = image_a$q;
        image_b$d = image_b$q;
        image_c$d = image_c$q;
        image_all$d = image_all$q;
        held$d = held$q;
        same_a$d = fill[(32'h0)+:(6)] == scrub_count[(32'h0)+:(6)];
        same_b$d = fill[(32'h6)+:(6)] == scrub_count[(32'h6)+:(6)];
        same_c$d = fill[(32'hc)+:(5)] == scrub_count[(32'hc)+:(5)];
        same_all$d = (same_a$q & same_b$q) & same_c$q;
        image_a$d = fill[(32'h0)+:(6)] == image_fill[(32'h0)+:(6)];
        image_b$d = fill[(32'h6)+:(6)] == image_fill[(32'h6)+:(6)];
        image_c$d = fill[(32'hc)+:(5)] == image_fill[(32'hc)+:(5)];
        image_all$d = (image_a$q & image_b$q) & image_c$q;
        if (finish) begin
            held$d = ~same_all$q;
        end
        else if (power_up) begin
            held$d = ~image_all$q;
        end
        if (~built) begin
            held$d = 1'b0;
        end
        if (reset) begin
            held$d = 1'b0;
        end
        mismatch = held$q;
    end
    
endmodule // bloom_core_parts_2_compare


module bloom_core_parts_2_compare_held(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_held


module bloom_core_parts_2_compare_image_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_image_a


module bloom_core_parts_2_compare_image_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_image_all


module bloom_core_parts_2_compare_image_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_image_b


module bloom_core_parts_2_compare_image_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_image_c


module bloom_core_parts_2_compare_same_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_same_a


module bloom_core_parts_2_compare_same_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_same_all


module bloom_core_parts_2_compare_same_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_same_b


module bloom_core_parts_2_compare_same_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_compare_same_c


module bloom_core_parts_2_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_count


module bloom_core_parts_2_down5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_down5


module bloom_core_parts_2_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_down6


module bloom_core_parts_2_down_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_down_if_one5


module bloom_core_parts_2_down_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_down_if_zero5


module bloom_core_parts_2_eq_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_eq_hi4


(* keep_hierarchy *)
module bloom_core_parts_2_hash(clock,key,stream,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    input wire  [255:0] stream;
    output reg  [15:0] addr;
    
    // Update code (custom)
    always @(*) addr = {4'h0, stream[35:24]};
    /* verilator lint_off UNUSED */
    wire unused_key = &{1'b0, key, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_stream = &{1'b0, stream, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_clock = &{1'b0, clock, 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_2_hash


module bloom_core_parts_2_kill5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_kill5


module bloom_core_parts_2_lt_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_lt_hi4


module bloom_core_parts_2_lt_lo4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_lt_lo4


module bloom_core_parts_2_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    `ifdef BLOOM_ICE40_BANK
    wire [3:0] bank_column = {write_addr[11], write_addr[0], write_addr[1], write_addr[2]};
    wire [15:0] bank_mask = ~(16'd1 << bank_column);
    wire [15:0] bank_rdata_0;
    SB_RAM40_4K #(
        .INIT_0(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_1(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_2(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_3(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_4(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_5(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_6(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_7(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_8(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_9(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_A(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_B(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_C(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_D(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_E(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_F(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .READ_MODE(3),
        .WRITE_MODE(0)
    ) \mem.0.0 (
        .RDATA(bank_rdata_0),
        .RCLK(clock),
        .RCLKE(1'b1),
        .RE(1'b1),
        .RADDR({read_addr[0], read_addr[1], read_addr[2], read_addr[10:3]}),
        .WCLK(clock),
        .WCLKE(1'b1),
        .WE(write_enable),
        .WADDR({3'b000, write_addr[10:3]}),
        .MASK(bank_mask),
        .WDATA({16{write_data}})
    );
    wire [1:0] bank_columns = {bank_rdata_0[11], bank_rdata_0[3]};
    reg [0:0] bank_read_column;
    always @(posedge clock) begin
        bank_read_column <= read_addr[11:11];
        read_data <= bank_columns[bank_read_column];
    end
    `else
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    // Initial contents (contract section 4): every bit 0, no 1 bits (empty filter). Synthesis sees only
    // the 1 bits; the FPGA tools write the others as 0 (see hdl/src/core/ram.rs).
    `ifndef SYNTHESIS
    reg [12:0] init_addr;
    `endif
    initial begin
    `ifndef SYNTHESIS
        for (init_addr = 13'd0; init_addr < 13'd4096; init_addr = init_addr + 13'd1) begin
            mem[init_addr[11:0]] = 1'b0;
        end
        read_raw = 1'b0;
        read_data = 1'b0;
    `endif
    end
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    `endif
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_2_ram


module bloom_core_parts_2_same_high4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_same_high4


module bloom_core_parts_2_same_low4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_same_low4


module bloom_core_parts_2_sc5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_sc5


module bloom_core_parts_2_sc_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_sc_change6


module bloom_core_parts_2_sc_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_sc_down6


module bloom_core_parts_2_scrub5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_scrub5


module bloom_core_parts_2_scrub_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_scrub_count


module bloom_core_parts_2_set5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_set5


module bloom_core_parts_2_up5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_2_up5


module bloom_core_parts_3(clock,reset,key1,stream2,is_rb2,rb_addr2,write4,wdata4,clear5,counted4,scrub4,ptr3,scrub_zero5,scrub_finish,power_up,sweep_en,sweep_en3,sweep_addr3,bit5,fill_low,fill_high,scrub_mismatch,write_addr_next);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  [255:0] stream2;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  [15:0] write4;
    input wire  wdata4;
    input wire  clear5;
    input wire  counted4;
    input wire  scrub4;
    input wire  [16:0] ptr3;
    input wire  scrub_zero5;
    input wire  scrub_finish;
    input wire  power_up;
    input wire  sweep_en;
    input wire  sweep_en3;
    input wire  [15:0] sweep_addr3;
    output reg  bit5;
    output reg  [7:0] fill_low;
    output reg  [8:0] fill_high;
    output reg  scrub_mismatch;
    output reg  [15:0] write_addr_next;
    
    // Constant declarations
    localparam  scrub_correction = 1'b1;
    localparam  scrub_built = 1'b0;
    localparam  forwarding_enabled = 1'b1;
    localparam  bank_select = 16'h8;
    localparam  count_zero = 17'b0;
    localparam  count_one = 17'b1;
    localparam  count_all = 17'b1111111111111;
    localparam  count_upper = 17'b1111111111110;
    localparam  address_mask_low = 16'hff;
    localparam  address_mask_high = 16'hf00;
    localparam  address_zero = 16'h0;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
    reg  [255:0] hash$stream;
    wire  [15:0] hash$addr;
    reg  ram$clock;
    reg  [15:0] ram$read_addr;
    wire  ram$read_data;
    reg  ram$write_enable;
    reg  [15:0] ram$write_addr;
    reg  ram$write_data;
    reg  [15:0] addr3$d;
    wire  [15:0] addr3$q;
    reg  addr3$clock;
    reg  [15:0] addr4$d;
    wire  [15:0] addr4$q;
    reg  addr4$clock;
    reg  same_low4$d;
    wire  same_low4$q;
    reg  same_low4$clock;
    reg  same_high4$d;
    wire  same_high4$q;
    reg  same_high4$clock;
    reg  up5$d;
    wire  up5$q;
    reg  up5$clock;
    reg  down5$d;
    wire  down5$q;
    reg  down5$clock;
    reg  set5$d;
    wire  set5$q;
    reg  set5$clock;
    reg  kill5$d;
    wire  kill5$q;
    reg  kill5$clock;
    reg  change_if_one5$d;
    wire  change_if_one5$q;
    reg  change_if_one5$clock;
    reg  change_if_zero5$d;
    wire  change_if_zero5$q;
    reg  change_if_zero5$clock;
    reg  down_if_one5$d;
    wire  down_if_one5$q;
    reg  down_if_one5$clock;
    reg  down_if_zero5$d;
    wire  down_if_zero5$q;
    reg  down_if_zero5$clock;
    reg  change6$d;
    wire  change6$q;
    reg  change6$clock;
    reg  down6$d;
    wire  down6$q;
    reg  down6$clock;
    reg  [16:0] count$d;
    wire  [16:0] count$q;
    reg  count$clock;
    reg  [15:0] addr3_wide$narrow;
    wire  [16:0] addr3_wide$wide;
    reg  lt_hi4$d;
    wire  lt_hi4$q;
    reg  lt_hi4$clock;
    reg  eq_hi4$d;
    wire  eq_hi4$q;
    reg  eq_hi4$clock;
    reg  lt_lo4$d;
    wire  lt_lo4$q;
    reg  lt_lo4$clock;
    reg  sc5$d;
    wire  sc5$q;
    reg  sc5$clock;
    reg  scrub5$d;
    wire  scrub5$q;
    reg  scrub5$clock;
    reg  sc_change6$d;
    wire  sc_change6$q;
    reg  sc_change6$clock;
    reg  sc_down6$d;
    wire  sc_down6$q;
    reg  sc_down6$clock;
    reg  [16:0] scrub_count$d;
    wire  [16:0] scrub_count$q;
    reg  scrub_count$clock;
    reg  compare$clock;
    reg  compare$reset;
    reg  [16:0] compare$fill;
    reg  [16:0] compare$scrub_count;
    reg  compare$finish;
    reg  compare$power_up;
    wire  compare$mismatch;
    
    // Local signals
    reg  [15:0] addr2;
    reg  up4;
    reg  down4;
    reg  kill4;
    reg  set4;
    reg  inc5;
    reg  dec5;
    reg  [16:0] delta6;
    reg  [16:0] step6;
    reg  [16:0] keep;
    reg  below4;
    reg  [16:0] sc_delta6;
    reg  [16:0] sc_step6;
    reg  [16:0] sc_keep;
    
    // Sub module instances
    bloom_core_parts_3_hash hash(
        .clock(hash$clock),
        .key(hash$key),
        .stream(hash$stream),
        .addr(hash$addr)
    );
    bloom_core_parts_3_ram ram(
        .clock(ram$clock),
        .read_addr(ram$read_addr),
        .read_data(ram$read_data),
        .write_enable(ram$write_enable),
        .write_addr(ram$write_addr),
        .write_data(ram$write_data)
    );
    bloom_core_parts_3_addr3 addr3(
        .d(addr3$d),
        .q(addr3$q),
        .clock(addr3$clock)
    );
    bloom_core_parts_3_addr4 addr4(
        .d(addr4$d),
        .q(addr4$q),
        .clock(addr4$clock)
    );
    bloom_core_parts_3_same_low4 same_low4(
        .d(same_low4$d),
        .q(same_low4$q),
        .clock(same_low4$clock)
    );
    bloom_core_parts_3_same_high4 same_high4(
        .d(same_high4$d),
        .q(same_high4$q),
        .clock(same_high4$clock)
    );
    bloom_core_parts_3_up5 up5(
        .d(up5$d),
        .q(up5$q),
        .clock(up5$clock)
    );
    bloom_core_parts_3_down5 down5(
        .d(down5$d),
        .q(down5$q),
        .clock(down5$clock)
    );
    bloom_core_parts_3_set5 set5(
        .d(set5$d),
        .q(set5$q),
        .clock(set5$clock)
    );
    bloom_core_parts_3_kill5 kill5(
        .d(kill5$d),
        .q(kill5$q),
        .clock(kill5$clock)
    );
    bloom_core_parts_3_change_if_one5 change_if_one5(
        .d(change_if_one5$d),
        .q(change_if_one5$q),
        .clock(change_if_one5$clock)
    );
    bloom_core_parts_3_change_if_zero5 change_if_zero5(
        .d(change_if_zero5$d),
        .q(change_if_zero5$q),
        .clock(change_if_zero5$clock)
    );
    bloom_core_parts_3_down_if_one5 down_if_one5(
        .d(down_if_one5$d),
        .q(down_if_one5$q),
        .clock(down_if_one5$clock)
    );
    bloom_core_parts_3_down_if_zero5 down_if_zero5(
        .d(down_if_zero5$d),
        .q(down_if_zero5$q),
        .clock(down_if_zero5$clock)
    );
    bloom_core_parts_3_change6 change6(
        .d(change6$d),
        .q(change6$q),
        .clock(change6$clock)
    );
    bloom_core_parts_3_down6 down6(
        .d(down6$d),
        .q(down6$q),
        .clock(down6$clock)
    );
    bloom_core_parts_3_count count(
        .d(count$d),
        .q(count$q),
        .clock(count$clock)
    );
    bloom_core_parts_3_addr3_wide addr3_wide(
        .narrow(addr3_wide$narrow),
        .wide(addr3_wide$wide)
    );
    bloom_core_parts_3_lt_hi4 lt_hi4(
        .d(lt_hi4$d),
        .q(lt_hi4$q),
        .clock(lt_hi4$clock)
    );
    bloom_core_parts_3_eq_hi4 eq_hi4(
        .d(eq_hi4$d),
        .q(eq_hi4$q),
        .clock(eq_hi4$clock)
    );
    bloom_core_parts_3_lt_lo4 lt_lo4(
        .d(lt_lo4$d),
        .q(lt_lo4$q),
        .clock(lt_lo4$clock)
    );
    bloom_core_parts_3_sc5 sc5(
        .d(sc5$d),
        .q(sc5$q),
        .clock(sc5$clock)
    );
    bloom_core_parts_3_scrub5 scrub5(
        .d(scrub5$d),
        .q(scrub5$q),
        .clock(scrub5$clock)
    );
    bloom_core_parts_3_sc_change6 sc_change6(
        .d(sc_change6$d),
        .q(sc_change6$q),
        .clock(sc_change6$clock)
    );
    bloom_core_parts_3_sc_down6 sc_down6(
        .d(sc_down6$d),
        .q(sc_down6$q),
        .clock(sc_down6$clock)
    );
    bloom_core_parts_3_scrub_count scrub_count(
        .d(scrub_count$d),
        .q(scrub_count$q),
        .clock(scrub_count$clock)
    );
    bloom_core_parts_3_compare compare(
        .clock(compare$clock),
        .reset(compare$reset),
        .fill(compare$fill),
        .scrub_count(compare$scrub_count),
        .finish(compare$finish),
        .power_up(compare$power_up),
        .mismatch(compare$mismatch)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        same_low4$clock = clock;
        same_high4$clock = clock;
        up5$clock = clock;
        down5$clock = clock;
        set5$clock = clock;
        kill5$clock = clock;
        change6$clock = clock;
        down6$clock = clock;
        count$clock = clock;
        change_if_one5$clock = clock;
        change_if_zero5$clock = clock;
        down_if_one5$clock = clock;
        down_if_zero5$clock = clock;
        lt_hi4$clock = clock;
        eq_hi4$clock = clock;
        lt_lo4$clock = clock;
        sc5$clock = clock;
        scrub5$clock = clock;
        sc_change6$clock = clock;
        sc_down6$clock = clock;
        scrub_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        same_low4$d = same_low4$q;
        same_high4$d = same_high4$q;
        up5$d = up5$q;
        down5$d = down5$q;
        set5$d = set5$q;
        kill5$d = kill5$q;
        change6$d = change6$q;
        down6$d = down6$q;
        count$d = count$q;
        change_if_one5$d = change_if_one5$q;
        change_if_zero5$d = change_if_zero5$q;
        down_if_one5$d = down_if_one5$q;
        down_if_zero5$d = down_if_zero5$q;
        lt_hi4$d = lt_hi4$q;
        eq_hi4$d = eq_hi4$q;
        lt_lo4$d = lt_lo4$q;
        sc5$d = sc5$q;
        scrub5$d = scrub5$q;
        sc_change6$d = sc_change6$q;
        sc_down6$d = sc_down6$q;
        scrub_count$d = scrub_count$q;
        hash$clock = clock;
        hash$key = key1;
        hash$stream = stream2;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        if (sweep_en3) begin
            addr4$d = sweep_addr3;
        end
        else begin
            addr4$d = addr3$q;
        end
        same_low4$d = ((addr3$q ^ addr4$q) & address_mask_low) == address_zero;
        same_high4$d = ((addr3$q ^ addr4$q) & address_mask_high) == address_zero;
        ram$write_enable = (write4 & bank_select) != address_zero;
        ram$write_addr = addr4$q;
        ram$write_data = wdata4;
        up4 = ((write4 & bank_select) != address_zero) & wdata4;
        down4 = ((write4 & bank_select) != address_zero) & ~(wdata4 | sweep_en);
        up5$d = up4;
        down5$d = down4;
        set4 = (forwarding_enabled & up5$q) & (same_low4$q & same_high4$q);
        kill4 = (forwarding_enabled & down5$q) & (same_low4$q & same_high4$q);
        set5$d = set4;
        kill5$d = kill4;
        change_if_one5$d = ((up4 & kill4) | ((down4 | scrub4) & ~kill4)) | (counted4 & ~scrub4);
        change_if_zero5$d = (up4 & ~set4) | ((down4 | scrub4) & set4);
        down_if_one5$d = down4 & ~kill4;
        down_if_zero5$d = down4 & set4;
        if (ram$read_data) begin
            bit5 = ~kill5$q;
            inc5 = change_if_one5$q;
            dec5 = down_if_one5$q;
        end
        else begin
            bit5 = set5$q;
            inc5 = change_if_zero5$q;
            dec5 = down_if_zero5$q;
        end
        change6$d = inc5 & ~scrub5$q;
        down6$d = dec5;
        addr3_wide$narrow = addr3$q;
        lt_hi4$d = addr3_wide$wide[(32'h8)+:(9)] < ptr3[(32'h8)+:(9)];
        eq_hi4$d = addr3_wide$wide[(32'h8)+:(9)] == ptr3[(32'h8)+:(9)];
        lt_lo4$d = addr3_wide$wide[(32'h0)+:(8)] < ptr3[(32'h0)+:(8)];
        below4 = lt_hi4$q | (eq_hi4$q & lt_lo4$q);
        sc5$d = (below4 & scrub_correction) | scrub4;
        scrub5$d = scrub4;
        sc_change6$d = inc5 & sc5$q;
        sc_down6$d = dec5 & sc5$q;
        if (down6$q) begin
            delta6 = count_upper;
        end
        else begin
            delta6 = count_zero;
        end
        if (change6$q) begin
            step6 = count_one;
        end
        else begin
            step6 = count_zero;
        end
        if (clear5) begin
            keep = count_zero;
        end
        else begin
            keep = count_all;
        end
        count$d = (count$q + (delta6 | step6)) & keep;
        if (sc_down6$q) begin
            sc_delta6 = count_upper;
        end
        else begin
            sc_delta6 = count_zero;
        end
        if (sc_change6$q) begin
            sc_step6 = count_one;
        end
        else begin
            sc_step6 = count_zero;
        end
        if (clear5 | scrub_zero5) begin
            sc_keep = count_zero;
        end
        else begin
            sc_keep = count_all;
        end
        scrub_count$d = (scrub_count$q + (sc_delta6 | sc_step6)) & sc_keep;
        compare$clock = clock;
        compare$reset = reset;
        compare$fill = count$q;
        compare$scrub_count = scrub_count$q;
        compare$finish = scrub_finish;
        compare$power_up = power_up;
        scrub_mismatch = compare$mismatch;
        if (~scrub_built) begin
            scrub_count$d = count_zero;
        end
        if (reset) begin
            up5$d = 1'b0;
            down5$d = 1'b0;
            change_if_one5$d = 1'b0;
            change_if_zero5$d = 1'b0;
            down_if_one5$d = 1'b0;
            down_if_zero5$d = 1'b0;
            change6$d = 1'b0;
            down6$d = 1'b0;
            count$d = count_zero;
            lt_hi4$d = 1'b0;
            eq_hi4$d = 1'b0;
            lt_lo4$d = 1'b0;
            sc5$d = 1'b0;
            scrub5$d = 1'b0;
            sc_change6$d = 1'b0;
            sc_down6$d = 1'b0;
        end
        write_addr_next = addr4$d;
        fill_low = count$q[(32'h0)+:(8)];
        fill_high = count$q[(32'h8)+:(9)];
    end
    
endmodule // bloom_core_parts_3


module bloom_core_parts_3_addr3(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_addr3


module bloom_core_parts_3_addr3_wide(narrow,wide);
    
    // Module arguments
    input wire  [15:0] narrow;
    output reg  [16:0] wide;
    
    // Update code (custom)
    always @(*) wide = {1'd0, narrow};
endmodule // bloom_core_parts_3_addr3_wide


module bloom_core_parts_3_addr4(d,q,clock);
    
    // Module arguments
    input wire  [15:0] d;
    output reg  [15:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 16'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_addr4


module bloom_core_parts_3_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_change6


module bloom_core_parts_3_change_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_change_if_one5


module bloom_core_parts_3_change_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_change_if_zero5


module bloom_core_parts_3_compare(clock,reset,fill,scrub_count,finish,power_up,mismatch);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [16:0] fill;
    input wire  [16:0] scrub_count;
    input wire  finish;
    input wire  power_up;
    output reg  mismatch;
    
    // Constant declarations
    localparam  image_fill = 17'b0;
    localparam  built = 1'b0;
    
    // Stub signals
    reg  same_a$d;
    wire  same_a$q;
    reg  same_a$clock;
    reg  same_b$d;
    wire  same_b$q;
    reg  same_b$clock;
    reg  same_c$d;
    wire  same_c$q;
    reg  same_c$clock;
    reg  same_all$d;
    wire  same_all$q;
    reg  same_all$clock;
    reg  image_a$d;
    wire  image_a$q;
    reg  image_a$clock;
    reg  image_b$d;
    wire  image_b$q;
    reg  image_b$clock;
    reg  image_c$d;
    wire  image_c$q;
    reg  image_c$clock;
    reg  image_all$d;
    wire  image_all$q;
    reg  image_all$clock;
    reg  held$d;
    wire  held$q;
    reg  held$clock;
    
    // Sub module instances
    bloom_core_parts_3_compare_same_a same_a(
        .d(same_a$d),
        .q(same_a$q),
        .clock(same_a$clock)
    );
    bloom_core_parts_3_compare_same_b same_b(
        .d(same_b$d),
        .q(same_b$q),
        .clock(same_b$clock)
    );
    bloom_core_parts_3_compare_same_c same_c(
        .d(same_c$d),
        .q(same_c$q),
        .clock(same_c$clock)
    );
    bloom_core_parts_3_compare_same_all same_all(
        .d(same_all$d),
        .q(same_all$q),
        .clock(same_all$clock)
    );
    bloom_core_parts_3_compare_image_a image_a(
        .d(image_a$d),
        .q(image_a$q),
        .clock(image_a$clock)
    );
    bloom_core_parts_3_compare_image_b image_b(
        .d(image_b$d),
        .q(image_b$q),
        .clock(image_b$clock)
    );
    bloom_core_parts_3_compare_image_c image_c(
        .d(image_c$d),
        .q(image_c$q),
        .clock(image_c$clock)
    );
    bloom_core_parts_3_compare_image_all image_all(
        .d(image_all$d),
        .q(image_all$q),
        .clock(image_all$clock)
    );
    bloom_core_parts_3_compare_held held(
        .d(held$d),
        .q(held$q),
        .clock(held$clock)
    );
    
    // Update code
    always @(*) begin
        same_a$clock = clock;
        same_b$clock = clock;
        same_c$clock = clock;
        same_all$clock = clock;
        image_a$clock = clock;
        image_b$clock = clock;
        image_c$clock = clock;
        image_all$clock = clock;
        held$clock = clock;
        same_a$d = same_a$q;
        same_b$d = same_b$q;
        same_c$d = same_c$q;
        same_all$d = same_all$q;
        image_a$d = image_a$q;
        image_b$d = image_b$q;
        image_c$d = image_c$q;
        image_all$d = image_all$q;
        held$d = held$q;
        same_a$d = fill[(32'h0)+:(6)] == scrub_count[(32'h0)+:(6)];
        same_b$d = fill[(32'h6)+:(6)] == scrub_count[(32'h6)+:(6)];
        same_c$d = fill[(32'hc)+:(5)] == scrub_count[(32'hc)+:(5)];
        same_all$d = (same_a$q & same_b$q) & same_c$q;
        image_a$d = fill[(32'h0)+:(6)] == image_fill[(32'h0)+:(6)];
        image_b$d = fill[(32'h6)+:(6)] == image_fill[(32'h6)+:(6)];
        image_c$d = fill[(32'hc)+:(5)] == image_fill[(32'hc)+:(5)];
        image_all$d = (image_a$q & image_b$q) & image_c$q;
        if (finish) begin
            held$d = ~same_all$q;
        end
        else if (power_up) begin
            held$d = ~image_all$q;
        end
        if (~built) begin
            held$d = 1'b0;
        end
        if (reset) begin
            held$d = 1'b0;
        end
        mismatch = held$q;
    end
    
endmodule // bloom_core_parts_3_compare


module bloom_core_parts_3_compare_held(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_held


module bloom_core_parts_3_compare_image_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_image_a


module bloom_core_parts_3_compare_image_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_image_all


module bloom_core_parts_3_compare_image_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_image_b


module bloom_core_parts_3_compare_image_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_image_c


module bloom_core_parts_3_compare_same_a(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_same_a


module bloom_core_parts_3_compare_same_all(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_same_all


module bloom_core_parts_3_compare_same_b(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_same_b


module bloom_core_parts_3_compare_same_c(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_compare_same_c


module bloom_core_parts_3_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_count


module bloom_core_parts_3_down5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_down5


module bloom_core_parts_3_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_down6


module bloom_core_parts_3_down_if_one5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_down_if_one5


module bloom_core_parts_3_down_if_zero5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_down_if_zero5


module bloom_core_parts_3_eq_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_eq_hi4


(* keep_hierarchy *)
module bloom_core_parts_3_hash(clock,key,stream,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    input wire  [255:0] stream;
    output reg  [15:0] addr;
    
    // Update code (custom)
    always @(*) addr = {4'h0, stream[47:36]};
    /* verilator lint_off UNUSED */
    wire unused_key = &{1'b0, key, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_stream = &{1'b0, stream, 1'b0};
    /* verilator lint_on UNUSED */
    /* verilator lint_off UNUSED */
    wire unused_clock = &{1'b0, clock, 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_3_hash


module bloom_core_parts_3_kill5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_kill5


module bloom_core_parts_3_lt_hi4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_lt_hi4


module bloom_core_parts_3_lt_lo4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_lt_lo4


module bloom_core_parts_3_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    `ifdef BLOOM_ICE40_BANK
    wire [3:0] bank_column = {write_addr[11], write_addr[0], write_addr[1], write_addr[2]};
    wire [15:0] bank_mask = ~(16'd1 << bank_column);
    wire [15:0] bank_rdata_0;
    SB_RAM40_4K #(
        .INIT_0(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_1(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_2(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_3(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_4(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_5(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_6(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_7(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_8(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_9(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_A(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_B(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_C(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_D(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_E(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .INIT_F(256'h0000000000000000000000000000000000000000000000000000000000000000),
        .READ_MODE(3),
        .WRITE_MODE(0)
    ) \mem.0.0 (
        .RDATA(bank_rdata_0),
        .RCLK(clock),
        .RCLKE(1'b1),
        .RE(1'b1),
        .RADDR({read_addr[0], read_addr[1], read_addr[2], read_addr[10:3]}),
        .WCLK(clock),
        .WCLKE(1'b1),
        .WE(write_enable),
        .WADDR({3'b000, write_addr[10:3]}),
        .MASK(bank_mask),
        .WDATA({16{write_data}})
    );
    wire [1:0] bank_columns = {bank_rdata_0[11], bank_rdata_0[3]};
    reg [0:0] bank_read_column;
    always @(posedge clock) begin
        bank_read_column <= read_addr[11:11];
        read_data <= bank_columns[bank_read_column];
    end
    `else
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    // Initial contents (contract section 4): every bit 0, no 1 bits (empty filter). Synthesis sees only
    // the 1 bits; the FPGA tools write the others as 0 (see hdl/src/core/ram.rs).
    `ifndef SYNTHESIS
    reg [12:0] init_addr;
    `endif
    initial begin
    `ifndef SYNTHESIS
        for (init_addr = 13'd0; init_addr < 13'd4096; init_addr = init_addr + 13'd1) begin
            mem[init_addr[11:0]] = 1'b0;
        end
        read_raw = 1'b0;
        read_data = 1'b0;
    `endif
    end
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    `endif
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_3_ram


module bloom_core_parts_3_same_high4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_same_high4


module bloom_core_parts_3_same_low4(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_same_low4


module bloom_core_parts_3_sc5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_sc5


module bloom_core_parts_3_sc_change6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_sc_change6


module bloom_core_parts_3_sc_down6(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_sc_down6


module bloom_core_parts_3_scrub5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_scrub5


module bloom_core_parts_3_scrub_count(d,q,clock);
    
    // Module arguments
    input wire  [16:0] d;
    output reg  [16:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 17'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_scrub_count


module bloom_core_parts_3_set5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_set5


module bloom_core_parts_3_up5(d,q,clock);
    
    // Module arguments
    input wire  d;
    output reg  q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 1'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // bloom_core_parts_3_up5
