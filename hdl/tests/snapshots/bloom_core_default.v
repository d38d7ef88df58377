

module bloom_core(clock,reset,req_valid,req_ready,req_op,req_key,req_tag,resp_valid,resp_ready,resp_hit,resp_tag,rb_req,rb_bank,rb_addr,rb_valid,rb_data,fill_bank,fill_count,busy);
    
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
    output reg  rb_valid;
    output reg  rb_data;
    input wire  [3:0] fill_bank;
    output reg  [16:0] fill_count;
    output reg  busy;
    
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
    wire  control$rb_valid;
    wire  control$rb_data;
    wire  control$busy;
    wire  [63:0] control$key1;
    wire  control$is_rb2;
    wire  [15:0] control$rb_addr2;
    wire  control$insert4;
    wire  control$insert5;
    wire  control$clear5;
    wire  control$sweep_en;
    wire  [15:0] control$sweep_addr;
    wire  [3:0] control$rb_bank5;
    reg  control$all_bits5;
    reg  control$rb_bit5;
    reg  parts$0$clock;
    reg  parts$0$reset;
    reg  [63:0] parts$0$key1;
    reg  parts$0$is_rb2;
    reg  [15:0] parts$0$rb_addr2;
    reg  parts$0$insert4;
    reg  parts$0$insert5;
    reg  parts$0$clear5;
    reg  parts$0$sweep_en;
    reg  [15:0] parts$0$sweep_addr;
    wire  parts$0$bit5;
    wire  [16:0] parts$0$fill;
    reg  parts$1$clock;
    reg  parts$1$reset;
    reg  [63:0] parts$1$key1;
    reg  parts$1$is_rb2;
    reg  [15:0] parts$1$rb_addr2;
    reg  parts$1$insert4;
    reg  parts$1$insert5;
    reg  parts$1$clear5;
    reg  parts$1$sweep_en;
    reg  [15:0] parts$1$sweep_addr;
    wire  parts$1$bit5;
    wire  [16:0] parts$1$fill;
    reg  parts$2$clock;
    reg  parts$2$reset;
    reg  [63:0] parts$2$key1;
    reg  parts$2$is_rb2;
    reg  [15:0] parts$2$rb_addr2;
    reg  parts$2$insert4;
    reg  parts$2$insert5;
    reg  parts$2$clear5;
    reg  parts$2$sweep_en;
    reg  [15:0] parts$2$sweep_addr;
    wire  parts$2$bit5;
    wire  [16:0] parts$2$fill;
    reg  parts$3$clock;
    reg  parts$3$reset;
    reg  [63:0] parts$3$key1;
    reg  parts$3$is_rb2;
    reg  [15:0] parts$3$rb_addr2;
    reg  parts$3$insert4;
    reg  parts$3$insert5;
    reg  parts$3$clear5;
    reg  parts$3$sweep_en;
    reg  [15:0] parts$3$sweep_addr;
    wire  parts$3$bit5;
    wire  [16:0] parts$3$fill;
    
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
        .rb_valid(control$rb_valid),
        .rb_data(control$rb_data),
        .busy(control$busy),
        .key1(control$key1),
        .is_rb2(control$is_rb2),
        .rb_addr2(control$rb_addr2),
        .insert4(control$insert4),
        .insert5(control$insert5),
        .clear5(control$clear5),
        .sweep_en(control$sweep_en),
        .sweep_addr(control$sweep_addr),
        .rb_bank5(control$rb_bank5),
        .all_bits5(control$all_bits5),
        .rb_bit5(control$rb_bit5)
    );
    bloom_core_parts_0 parts$0(
        .clock(parts$0$clock),
        .reset(parts$0$reset),
        .key1(parts$0$key1),
        .is_rb2(parts$0$is_rb2),
        .rb_addr2(parts$0$rb_addr2),
        .insert4(parts$0$insert4),
        .insert5(parts$0$insert5),
        .clear5(parts$0$clear5),
        .sweep_en(parts$0$sweep_en),
        .sweep_addr(parts$0$sweep_addr),
        .bit5(parts$0$bit5),
        .fill(parts$0$fill)
    );
    bloom_core_parts_1 parts$1(
        .clock(parts$1$clock),
        .reset(parts$1$reset),
        .key1(parts$1$key1),
        .is_rb2(parts$1$is_rb2),
        .rb_addr2(parts$1$rb_addr2),
        .insert4(parts$1$insert4),
        .insert5(parts$1$insert5),
        .clear5(parts$1$clear5),
        .sweep_en(parts$1$sweep_en),
        .sweep_addr(parts$1$sweep_addr),
        .bit5(parts$1$bit5),
        .fill(parts$1$fill)
    );
    bloom_core_parts_2 parts$2(
        .clock(parts$2$clock),
        .reset(parts$2$reset),
        .key1(parts$2$key1),
        .is_rb2(parts$2$is_rb2),
        .rb_addr2(parts$2$rb_addr2),
        .insert4(parts$2$insert4),
        .insert5(parts$2$insert5),
        .clear5(parts$2$clear5),
        .sweep_en(parts$2$sweep_en),
        .sweep_addr(parts$2$sweep_addr),
        .bit5(parts$2$bit5),
        .fill(parts$2$fill)
    );
    bloom_core_parts_3 parts$3(
        .clock(parts$3$clock),
        .reset(parts$3$reset),
        .key1(parts$3$key1),
        .is_rb2(parts$3$is_rb2),
        .rb_addr2(parts$3$rb_addr2),
        .insert4(parts$3$insert4),
        .insert5(parts$3$insert5),
        .clear5(parts$3$clear5),
        .sweep_en(parts$3$sweep_en),
        .sweep_addr(parts$3$sweep_addr),
        .bit5(parts$3$bit5),
        .fill(parts$3$fill)
    );
    
    // Update code (custom)
    always @(*) begin
        control$clock = clock;
        control$reset = reset;
        control$req_valid = req_valid;
        control$req_op = req_op;
        control$req_key = req_key;
        control$req_tag = req_tag;
        control$resp_ready = resp_ready;
        control$rb_req = rb_req;
        control$rb_bank = rb_bank;
        control$rb_addr = rb_addr;
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
        parts$0$is_rb2 = control$is_rb2;
        parts$0$rb_addr2 = control$rb_addr2;
        parts$0$insert4 = control$insert4;
        parts$0$insert5 = control$insert5;
        parts$0$clear5 = control$clear5;
        parts$0$sweep_en = control$sweep_en;
        parts$0$sweep_addr = control$sweep_addr;
        parts$1$clock = clock;
        parts$1$reset = reset;
        parts$1$key1 = control$key1;
        parts$1$is_rb2 = control$is_rb2;
        parts$1$rb_addr2 = control$rb_addr2;
        parts$1$insert4 = control$insert4;
        parts$1$insert5 = control$insert5;
        parts$1$clear5 = control$clear5;
        parts$1$sweep_en = control$sweep_en;
        parts$1$sweep_addr = control$sweep_addr;
        parts$2$clock = clock;
        parts$2$reset = reset;
        parts$2$key1 = control$key1;
        parts$2$is_rb2 = control$is_rb2;
        parts$2$rb_addr2 = control$rb_addr2;
        parts$2$insert4 = control$insert4;
        parts$2$insert5 = control$insert5;
        parts$2$clear5 = control$clear5;
        parts$2$sweep_en = control$sweep_en;
        parts$2$sweep_addr = control$sweep_addr;
        parts$3$clock = clock;
        parts$3$reset = reset;
        parts$3$key1 = control$key1;
        parts$3$is_rb2 = control$is_rb2;
        parts$3$rb_addr2 = control$rb_addr2;
        parts$3$insert4 = control$insert4;
        parts$3$insert5 = control$insert5;
        parts$3$clear5 = control$clear5;
        parts$3$sweep_en = control$sweep_en;
        parts$3$sweep_addr = control$sweep_addr;
        control$all_bits5 = parts$0$bit5 & parts$1$bit5 & parts$2$bit5 & parts$3$bit5;
        case (control$rb_bank5)
            4'd0: control$rb_bit5 = parts$0$bit5;
            4'd1: control$rb_bit5 = parts$1$bit5;
            4'd2: control$rb_bit5 = parts$2$bit5;
            4'd3: control$rb_bit5 = parts$3$bit5;
            default: control$rb_bit5 = 1'b0;
        endcase
        case (fill_bank)
            4'd0: fill_count = parts$0$fill;
            4'd1: fill_count = parts$1$fill;
            4'd2: fill_count = parts$2$fill;
            4'd3: fill_count = parts$3$fill;
            default: fill_count = 17'd0;
        endcase
    end
endmodule // bloom_core


module bloom_core_control(clock,reset,req_valid,req_ready,req_op,req_key,req_tag,resp_valid,resp_ready,resp_hit,resp_tag,rb_req,rb_bank,rb_addr,rb_valid,rb_data,busy,key1,is_rb2,rb_addr2,insert4,insert5,clear5,sweep_en,sweep_addr,rb_bank5,all_bits5,rb_bit5);
    
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
    output reg  rb_valid;
    output reg  rb_data;
    output reg  busy;
    output reg  [63:0] key1;
    output reg  is_rb2;
    output reg  [15:0] rb_addr2;
    output reg  insert4;
    output reg  insert5;
    output reg  clear5;
    output reg  sweep_en;
    output reg  [15:0] sweep_addr;
    output reg  [3:0] rb_bank5;
    input wire  all_bits5;
    input wire  rb_bit5;
    
    // Constant declarations
    localparam  op_insert = 2'b1;
    localparam  op_clear = 2'b10;
    localparam  credit_limit = 4'h8;
    localparam  credit_one = 4'h1;
    localparam  credit_zero = 4'h0;
    localparam  sweep_last = 16'hfff;
    localparam  sweep_one = 16'h1;
    localparam  sweep_zero = 16'h0;
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
    reg  valid5$d;
    wire  valid5$q;
    reg  valid5$clock;
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
    reg  [1:0] op5$d;
    wire  [1:0] op5$q;
    reg  op5$clock;
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
    reg  [7:0] tag5$d;
    wire  [7:0] tag5$q;
    reg  tag5$clock;
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
    reg  rb5$d;
    wire  rb5$q;
    reg  rb5$clock;
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
    reg  [3:0] rb_bank_5$d;
    wire  [3:0] rb_bank_5$q;
    reg  rb_bank_5$clock;
    reg  [63:0] key_1$d;
    wire  [63:0] key_1$q;
    reg  key_1$clock;
    reg  [3:0] credits$d;
    wire  [3:0] credits$q;
    reg  credits$clock;
    reg  sweeping$d;
    wire  sweeping$q;
    reg  sweeping$clock;
    reg  [15:0] sweep_count$d;
    wire  [15:0] sweep_count$q;
    reg  sweep_count$clock;
    reg  rb_valid6$d;
    wire  rb_valid6$q;
    reg  rb_valid6$clock;
    reg  rb_data6$d;
    wire  rb_data6$q;
    reg  rb_data6$clock;
    reg  insert_at4$d;
    wire  insert_at4$q;
    reg  insert_at4$clock;
    reg  insert_at5$d;
    wire  insert_at5$q;
    reg  insert_at5$clock;
    reg  clear_at5$d;
    wire  clear_at5$q;
    reg  clear_at5$clock;
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
    reg  clearing;
    
    // Sub module instances
    bloom_core_control_valid1 valid1(
        .d(valid1$d),
        .q(valid1$q),
        .clock(valid1$clock)
    );
    bloom_core_control_valid2 valid2(
        .d(valid2$d),
        .q(valid2$q),
        .clock(valid2$clock)
    );
    bloom_core_control_valid3 valid3(
        .d(valid3$d),
        .q(valid3$q),
        .clock(valid3$clock)
    );
    bloom_core_control_valid4 valid4(
        .d(valid4$d),
        .q(valid4$q),
        .clock(valid4$clock)
    );
    bloom_core_control_valid5 valid5(
        .d(valid5$d),
        .q(valid5$q),
        .clock(valid5$clock)
    );
    bloom_core_control_op1 op1(
        .d(op1$d),
        .q(op1$q),
        .clock(op1$clock)
    );
    bloom_core_control_op2 op2(
        .d(op2$d),
        .q(op2$q),
        .clock(op2$clock)
    );
    bloom_core_control_op3 op3(
        .d(op3$d),
        .q(op3$q),
        .clock(op3$clock)
    );
    bloom_core_control_op4 op4(
        .d(op4$d),
        .q(op4$q),
        .clock(op4$clock)
    );
    bloom_core_control_op5 op5(
        .d(op5$d),
        .q(op5$q),
        .clock(op5$clock)
    );
    bloom_core_control_tag1 tag1(
        .d(tag1$d),
        .q(tag1$q),
        .clock(tag1$clock)
    );
    bloom_core_control_tag2 tag2(
        .d(tag2$d),
        .q(tag2$q),
        .clock(tag2$clock)
    );
    bloom_core_control_tag3 tag3(
        .d(tag3$d),
        .q(tag3$q),
        .clock(tag3$clock)
    );
    bloom_core_control_tag4 tag4(
        .d(tag4$d),
        .q(tag4$q),
        .clock(tag4$clock)
    );
    bloom_core_control_tag5 tag5(
        .d(tag5$d),
        .q(tag5$q),
        .clock(tag5$clock)
    );
    bloom_core_control_rb1 rb1(
        .d(rb1$d),
        .q(rb1$q),
        .clock(rb1$clock)
    );
    bloom_core_control_rb2 rb2(
        .d(rb2$d),
        .q(rb2$q),
        .clock(rb2$clock)
    );
    bloom_core_control_rb3 rb3(
        .d(rb3$d),
        .q(rb3$q),
        .clock(rb3$clock)
    );
    bloom_core_control_rb4 rb4(
        .d(rb4$d),
        .q(rb4$q),
        .clock(rb4$clock)
    );
    bloom_core_control_rb5 rb5(
        .d(rb5$d),
        .q(rb5$q),
        .clock(rb5$clock)
    );
    bloom_core_control_rb_address1 rb_address1(
        .d(rb_address1$d),
        .q(rb_address1$q),
        .clock(rb_address1$clock)
    );
    bloom_core_control_rb_address2 rb_address2(
        .d(rb_address2$d),
        .q(rb_address2$q),
        .clock(rb_address2$clock)
    );
    bloom_core_control_rb_bank1 rb_bank1(
        .d(rb_bank1$d),
        .q(rb_bank1$q),
        .clock(rb_bank1$clock)
    );
    bloom_core_control_rb_bank2 rb_bank2(
        .d(rb_bank2$d),
        .q(rb_bank2$q),
        .clock(rb_bank2$clock)
    );
    bloom_core_control_rb_bank3 rb_bank3(
        .d(rb_bank3$d),
        .q(rb_bank3$q),
        .clock(rb_bank3$clock)
    );
    bloom_core_control_rb_bank4 rb_bank4(
        .d(rb_bank4$d),
        .q(rb_bank4$q),
        .clock(rb_bank4$clock)
    );
    bloom_core_control_rb_bank_5 rb_bank_5(
        .d(rb_bank_5$d),
        .q(rb_bank_5$q),
        .clock(rb_bank_5$clock)
    );
    bloom_core_control_key_1 key_1(
        .d(key_1$d),
        .q(key_1$q),
        .clock(key_1$clock)
    );
    bloom_core_control_credits credits(
        .d(credits$d),
        .q(credits$q),
        .clock(credits$clock)
    );
    bloom_core_control_sweeping sweeping(
        .d(sweeping$d),
        .q(sweeping$q),
        .clock(sweeping$clock)
    );
    bloom_core_control_sweep_count sweep_count(
        .d(sweep_count$d),
        .q(sweep_count$q),
        .clock(sweep_count$clock)
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
    bloom_core_control_insert_at4 insert_at4(
        .d(insert_at4$d),
        .q(insert_at4$q),
        .clock(insert_at4$clock)
    );
    bloom_core_control_insert_at5 insert_at5(
        .d(insert_at5$d),
        .q(insert_at5$q),
        .clock(insert_at5$clock)
    );
    bloom_core_control_clear_at5 clear_at5(
        .d(clear_at5$d),
        .q(clear_at5$q),
        .clock(clear_at5$clock)
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
        valid1$clock = clock;
        valid2$clock = clock;
        valid3$clock = clock;
        valid4$clock = clock;
        valid5$clock = clock;
        op1$clock = clock;
        op2$clock = clock;
        op3$clock = clock;
        op4$clock = clock;
        op5$clock = clock;
        tag1$clock = clock;
        tag2$clock = clock;
        tag3$clock = clock;
        tag4$clock = clock;
        tag5$clock = clock;
        rb1$clock = clock;
        rb2$clock = clock;
        rb3$clock = clock;
        rb4$clock = clock;
        rb5$clock = clock;
        rb_address1$clock = clock;
        rb_address2$clock = clock;
        rb_bank1$clock = clock;
        rb_bank2$clock = clock;
        rb_bank3$clock = clock;
        rb_bank4$clock = clock;
        rb_bank_5$clock = clock;
        key_1$clock = clock;
        credits$clock = clock;
        sweeping$clock = clock;
        sweep_count$clock = clock;
        rb_valid6$clock = clock;
        rb_data6$clock = clock;
        insert_at4$clock = clock;
        insert_at5$clock = clock;
        clear_at5$clock = clock;
        valid1$d = valid1$q;
        valid2$d = valid2$q;
        valid3$d = valid3$q;
        valid4$d = valid4$q;
        valid5$d = valid5$q;
        op1$d = op1$q;
        op2$d = op2$q;
        op3$d = op3$q;
        op4$d = op4$q;
        op5$d = op5$q;
        tag1$d = tag1$q;
        tag2$d = tag2$q;
        tag3$d = tag3$q;
        tag4$d = tag4$q;
        tag5$d = tag5$q;
        rb1$d = rb1$q;
        rb2$d = rb2$q;
        rb3$d = rb3$q;
        rb4$d = rb4$q;
        rb5$d = rb5$q;
        rb_address1$d = rb_address1$q;
        rb_address2$d = rb_address2$q;
        rb_bank1$d = rb_bank1$q;
        rb_bank2$d = rb_bank2$q;
        rb_bank3$d = rb_bank3$q;
        rb_bank4$d = rb_bank4$q;
        rb_bank_5$d = rb_bank_5$q;
        key_1$d = key_1$q;
        credits$d = credits$q;
        sweeping$d = sweeping$q;
        sweep_count$d = sweep_count$q;
        rb_valid6$d = rb_valid6$q;
        rb_data6$d = rb_data6$q;
        insert_at4$d = insert_at4$q;
        insert_at5$d = insert_at5$q;
        clear_at5$d = clear_at5$q;
        fifo$clock = clock;
        fifo$reset = reset;
        clearing = ((valid1$q & (op1$q == op_clear)) | (valid2$q & (op2$q == op_clear))) | ((valid3$q & (op3$q == op_clear)) | sweeping$q);
        busy = clearing;
        ready = (~reset & ~rb_req) & (~clearing & (credits$q < credit_limit));
        req_ready = ready;
        accept = req_valid & ready;
        valid1$d = accept;
        op1$d = req_op;
        tag1$d = req_tag;
        key_1$d = req_key;
        rb1$d = rb_req;
        rb_address1$d = rb_addr & address_mask;
        rb_bank1$d = rb_bank;
        valid2$d = valid1$q;
        op2$d = op1$q;
        tag2$d = tag1$q;
        rb2$d = rb1$q;
        rb_address2$d = rb_address1$q;
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
        valid5$d = valid4$q;
        op5$d = op4$q;
        tag5$d = tag4$q;
        rb5$d = rb4$q;
        rb_bank_5$d = rb_bank4$q;
        key1 = key_1$q;
        is_rb2 = rb2$q;
        rb_addr2 = rb_address2$q;
        insert_at4$d = valid3$q & (op3$q == op_insert);
        insert_at5$d = insert_at4$q;
        clear_at5$d = valid4$q & (op4$q == op_clear);
        insert4 = insert_at4$q;
        insert5 = insert_at5$q;
        clear5 = clear_at5$q;
        sweep_en = sweeping$q;
        sweep_addr = sweep_count$q;
        rb_bank5 = rb_bank_5$q;
        if (sweeping$q) begin
            if (sweep_count$q == sweep_last) begin
                sweeping$d = 1'b0;
                sweep_count$d = sweep_zero;
            end
            else begin
                sweep_count$d = sweep_count$q + sweep_one;
            end
        end
        if (valid3$q & (op3$q == op_clear)) begin
            sweeping$d = 1'b1;
            sweep_count$d = sweep_zero;
        end
        fifo$push = valid5$q;
        fifo$push_hit = all_bits5 & (op5$q != op_clear);
        fifo$push_tag = tag5$q;
        fifo$pop = resp_ready;
        resp_valid = fifo$out_valid;
        resp_hit = fifo$out_hit;
        resp_tag = fifo$out_tag;
        popped = fifo$out_valid & resp_ready;
        if (accept & ~popped) begin
            credits$d = credits$q + credit_one;
        end
        if (~accept & popped) begin
            credits$d = credits$q - credit_one;
        end
        rb_valid6$d = rb5$q;
        rb_data6$d = rb5$q & rb_bit5;
        rb_valid = rb_valid6$q;
        rb_data = rb_data6$q;
        if (reset) begin
            valid1$d = 1'b0;
            valid2$d = 1'b0;
            valid3$d = 1'b0;
            valid4$d = 1'b0;
            valid5$d = 1'b0;
            rb1$d = 1'b0;
            rb2$d = 1'b0;
            rb3$d = 1'b0;
            rb4$d = 1'b0;
            rb5$d = 1'b0;
            rb_valid6$d = 1'b0;
            insert_at4$d = 1'b0;
            insert_at5$d = 1'b0;
            clear_at5$d = 1'b0;
            credits$d = credit_zero;
            sweeping$d = 1'b0;
            sweep_count$d = sweep_zero;
        end
    end
    
endmodule // bloom_core_control


module bloom_core_control_clear_at5(d,q,clock);
    
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
          
endmodule // bloom_core_control_clear_at5


module bloom_core_control_credits(d,q,clock);
    
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
          
endmodule // bloom_core_control_credits


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
    reg [2:0] write_pointer;
    reg [2:0] read_pointer;
    reg [3:0] count;
    wire popped = pop & (count != 4'd0);
    always @(posedge clock) begin
        if (push) begin
            case (write_pointer)
                3'd0: entry_0 <= {push_hit, push_tag};
                3'd1: entry_1 <= {push_hit, push_tag};
                3'd2: entry_2 <= {push_hit, push_tag};
                3'd3: entry_3 <= {push_hit, push_tag};
                3'd4: entry_4 <= {push_hit, push_tag};
                3'd5: entry_5 <= {push_hit, push_tag};
                3'd6: entry_6 <= {push_hit, push_tag};
                3'd7: entry_7 <= {push_hit, push_tag};
    endcase
        end
        if (reset) begin
            write_pointer <= 3'd0;
            read_pointer <= 3'd0;
            count <= 4'd0;
        end else begin
            write_pointer <= write_pointer + {2'd0, push};
            read_pointer <= read_pointer + {2'd0, popped};
            count <= (count + {3'd0, push}) - {3'd0, popped};
        end
    end
    always @(*) begin
        out_valid = (count != 4'd0);
        case (read_pointer)
            3'd0: {out_hit, out_tag} = entry_0;
            3'd1: {out_hit, out_tag} = entry_1;
            3'd2: {out_hit, out_tag} = entry_2;
            3'd3: {out_hit, out_tag} = entry_3;
            3'd4: {out_hit, out_tag} = entry_4;
            3'd5: {out_hit, out_tag} = entry_5;
            3'd6: {out_hit, out_tag} = entry_6;
            3'd7: {out_hit, out_tag} = entry_7;
        endcase
    end
endmodule // bloom_core_control_fifo


module bloom_core_control_insert_at4(d,q,clock);
    
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
          
endmodule // bloom_core_control_insert_at4


module bloom_core_control_insert_at5(d,q,clock);
    
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
          
endmodule // bloom_core_control_insert_at5


module bloom_core_control_key_1(d,q,clock);
    
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
          
endmodule // bloom_core_control_key_1


module bloom_core_control_op1(d,q,clock);
    
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
          
endmodule // bloom_core_control_op1


module bloom_core_control_op2(d,q,clock);
    
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
          
endmodule // bloom_core_control_op2


module bloom_core_control_op3(d,q,clock);
    
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
          
endmodule // bloom_core_control_op3


module bloom_core_control_op4(d,q,clock);
    
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
          
endmodule // bloom_core_control_op4


module bloom_core_control_op5(d,q,clock);
    
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
          
endmodule // bloom_core_control_op5


module bloom_core_control_rb1(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb1


module bloom_core_control_rb2(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb2


module bloom_core_control_rb3(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb3


module bloom_core_control_rb4(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb4


module bloom_core_control_rb5(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb5


module bloom_core_control_rb_address1(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_address1


module bloom_core_control_rb_address2(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_address2


module bloom_core_control_rb_bank1(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_bank1


module bloom_core_control_rb_bank2(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_bank2


module bloom_core_control_rb_bank3(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_bank3


module bloom_core_control_rb_bank4(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_bank4


module bloom_core_control_rb_bank_5(d,q,clock);
    
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
          
endmodule // bloom_core_control_rb_bank_5


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


module bloom_core_control_sweep_count(d,q,clock);
    
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
          
endmodule // bloom_core_control_sweep_count


module bloom_core_control_sweeping(d,q,clock);
    
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
          
endmodule // bloom_core_control_sweeping


module bloom_core_control_tag1(d,q,clock);
    
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
          
endmodule // bloom_core_control_tag1


module bloom_core_control_tag2(d,q,clock);
    
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
          
endmodule // bloom_core_control_tag2


module bloom_core_control_tag3(d,q,clock);
    
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
          
endmodule // bloom_core_control_tag3


module bloom_core_control_tag4(d,q,clock);
    
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
          
endmodule // bloom_core_control_tag4


module bloom_core_control_tag5(d,q,clock);
    
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
          
endmodule // bloom_core_control_tag5


module bloom_core_control_valid1(d,q,clock);
    
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
          
endmodule // bloom_core_control_valid1


module bloom_core_control_valid2(d,q,clock);
    
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
          
endmodule // bloom_core_control_valid2


module bloom_core_control_valid3(d,q,clock);
    
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
          
endmodule // bloom_core_control_valid3


module bloom_core_control_valid4(d,q,clock);
    
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
          
endmodule // bloom_core_control_valid4


module bloom_core_control_valid5(d,q,clock);
    
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
          
endmodule // bloom_core_control_valid5


module bloom_core_parts_0(clock,reset,key1,is_rb2,rb_addr2,insert4,insert5,clear5,sweep_en,sweep_addr,bit5,fill);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  insert4;
    input wire  insert5;
    input wire  clear5;
    input wire  sweep_en;
    input wire  [15:0] sweep_addr;
    output reg  bit5;
    output reg  [16:0] fill;
    
    // Constant declarations
    localparam  forwarding_enabled = 1'b1;
    localparam  fill_at_reset = 17'b0;
    localparam  fill_zero = 17'b0;
    localparam  fill_one = 17'b1;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
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
    reg  [15:0] addr5$d;
    wire  [15:0] addr5$q;
    reg  addr5$clock;
    reg  forward5$d;
    wire  forward5$q;
    reg  forward5$clock;
    reg  [16:0] fill_count$d;
    wire  [16:0] fill_count$q;
    reg  fill_count$clock;
    
    // Local signals
    reg  [15:0] addr2;
    
    // Sub module instances
    bloom_core_parts_0_hash hash(
        .clock(hash$clock),
        .key(hash$key),
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
    bloom_core_parts_0_addr5 addr5(
        .d(addr5$d),
        .q(addr5$q),
        .clock(addr5$clock)
    );
    bloom_core_parts_0_forward5 forward5(
        .d(forward5$d),
        .q(forward5$q),
        .clock(forward5$clock)
    );
    bloom_core_parts_0_fill_count fill_count(
        .d(fill_count$d),
        .q(fill_count$q),
        .clock(fill_count$clock)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        addr5$clock = clock;
        forward5$clock = clock;
        fill_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        addr5$d = addr5$q;
        forward5$d = forward5$q;
        fill_count$d = fill_count$q;
        hash$clock = clock;
        hash$key = key1;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        addr4$d = addr3$q;
        addr5$d = addr4$q;
        forward5$d = forwarding_enabled & (insert5 & (addr4$q == addr5$q));
        ram$write_enable = insert4 | sweep_en;
        if (sweep_en) begin
            ram$write_addr = sweep_addr;
        end
        else begin
            ram$write_addr = addr4$q;
        end
        ram$write_data = ~sweep_en;
        bit5 = ram$read_data | forward5$q;
        if (reset) begin
            fill_count$d = fill_at_reset;
        end
        else if (clear5) begin
            fill_count$d = fill_zero;
        end
        else if (insert5 & ~(ram$read_data | forward5$q)) begin
            fill_count$d = fill_count$q + fill_one;
        end
        fill = fill_count$q;
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


module bloom_core_parts_0_addr5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_0_addr5


module bloom_core_parts_0_fill_count(d,q,clock);
    
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
          
endmodule // bloom_core_parts_0_fill_count


module bloom_core_parts_0_forward5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_0_forward5


module bloom_core_parts_0_hash(clock,key,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    output reg  [15:0] addr;
    
    // Update code (custom)
    reg [11:0] chunk_parity_0;
    reg [11:0] chunk_parity_1;
    always @(posedge clock) begin
        chunk_parity_0 <= {(^(key[31:0] & 32'h22567d81)),
            (^(key[31:0] & 32'h4a5e4c17)),
            (^(key[31:0] & 32'h97d719e0)),
            (^(key[31:0] & 32'h5eee748f)),
            (^(key[31:0] & 32'h001a8b7b)),
            (^(key[31:0] & 32'h63d5196e)),
            (^(key[31:0] & 32'ha34cbaeb)),
            (^(key[31:0] & 32'h3a115892)),
            (^(key[31:0] & 32'h43e8f4bd)),
            (^(key[31:0] & 32'hd0bf2a8f)),
            (^(key[31:0] & 32'h7252bb35)),
            (^(key[31:0] & 32'hc331f555))};
        chunk_parity_1 <= {(^(key[63:32] & 32'hd934ec09)),
            (^(key[63:32] & 32'h5ff4b286)),
            (^(key[63:32] & 32'h47cfa1b5)),
            (^(key[63:32] & 32'h70d84af2)),
            (^(key[63:32] & 32'h8b07467d)),
            (^(key[63:32] & 32'hb53b824c)),
            (^(key[63:32] & 32'hb0357da7)),
            (^(key[63:32] & 32'hf67e3845)),
            (^(key[63:32] & 32'hda02d7c2)),
            (^(key[63:32] & 32'h4cd86a44)),
            (^(key[63:32] & 32'h9c1a2b5c)),
            (^(key[63:32] & 32'hd9b5e8fe))};
    end
    always @(*) begin
        addr = {4'h0, (chunk_parity_0 ^ chunk_parity_1 ^ 12'h0)};
    end
endmodule // bloom_core_parts_0_hash


module bloom_core_parts_0_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_0_ram


module bloom_core_parts_1(clock,reset,key1,is_rb2,rb_addr2,insert4,insert5,clear5,sweep_en,sweep_addr,bit5,fill);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  insert4;
    input wire  insert5;
    input wire  clear5;
    input wire  sweep_en;
    input wire  [15:0] sweep_addr;
    output reg  bit5;
    output reg  [16:0] fill;
    
    // Constant declarations
    localparam  forwarding_enabled = 1'b1;
    localparam  fill_at_reset = 17'b0;
    localparam  fill_zero = 17'b0;
    localparam  fill_one = 17'b1;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
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
    reg  [15:0] addr5$d;
    wire  [15:0] addr5$q;
    reg  addr5$clock;
    reg  forward5$d;
    wire  forward5$q;
    reg  forward5$clock;
    reg  [16:0] fill_count$d;
    wire  [16:0] fill_count$q;
    reg  fill_count$clock;
    
    // Local signals
    reg  [15:0] addr2;
    
    // Sub module instances
    bloom_core_parts_1_hash hash(
        .clock(hash$clock),
        .key(hash$key),
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
    bloom_core_parts_1_addr5 addr5(
        .d(addr5$d),
        .q(addr5$q),
        .clock(addr5$clock)
    );
    bloom_core_parts_1_forward5 forward5(
        .d(forward5$d),
        .q(forward5$q),
        .clock(forward5$clock)
    );
    bloom_core_parts_1_fill_count fill_count(
        .d(fill_count$d),
        .q(fill_count$q),
        .clock(fill_count$clock)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        addr5$clock = clock;
        forward5$clock = clock;
        fill_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        addr5$d = addr5$q;
        forward5$d = forward5$q;
        fill_count$d = fill_count$q;
        hash$clock = clock;
        hash$key = key1;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        addr4$d = addr3$q;
        addr5$d = addr4$q;
        forward5$d = forwarding_enabled & (insert5 & (addr4$q == addr5$q));
        ram$write_enable = insert4 | sweep_en;
        if (sweep_en) begin
            ram$write_addr = sweep_addr;
        end
        else begin
            ram$write_addr = addr4$q;
        end
        ram$write_data = ~sweep_en;
        bit5 = ram$read_data | forward5$q;
        if (reset) begin
            fill_count$d = fill_at_reset;
        end
        else if (clear5) begin
            fill_count$d = fill_zero;
        end
        else if (insert5 & ~(ram$read_data | forward5$q)) begin
            fill_count$d = fill_count$q + fill_one;
        end
        fill = fill_count$q;
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


module bloom_core_parts_1_addr5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_1_addr5


module bloom_core_parts_1_fill_count(d,q,clock);
    
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
          
endmodule // bloom_core_parts_1_fill_count


module bloom_core_parts_1_forward5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_1_forward5


module bloom_core_parts_1_hash(clock,key,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    output reg  [15:0] addr;
    
    // Update code (custom)
    reg [11:0] chunk_parity_0;
    reg [11:0] chunk_parity_1;
    always @(posedge clock) begin
        chunk_parity_0 <= {(^(key[31:0] & 32'h0a7602e5)),
            (^(key[31:0] & 32'hfafe1bde)),
            (^(key[31:0] & 32'h17dbc8d0)),
            (^(key[31:0] & 32'h990fd8d0)),
            (^(key[31:0] & 32'hda1c3bfe)),
            (^(key[31:0] & 32'h1abbede5)),
            (^(key[31:0] & 32'hf039f7fa)),
            (^(key[31:0] & 32'h3102d092)),
            (^(key[31:0] & 32'hcd54ce52)),
            (^(key[31:0] & 32'h7880de38)),
            (^(key[31:0] & 32'h6d65c084)),
            (^(key[31:0] & 32'hbdc9cb15))};
        chunk_parity_1 <= {(^(key[63:32] & 32'hf33d7d19)),
            (^(key[63:32] & 32'h7783fd22)),
            (^(key[63:32] & 32'h42f269b3)),
            (^(key[63:32] & 32'hcb564bd6)),
            (^(key[63:32] & 32'h4d6bf37d)),
            (^(key[63:32] & 32'h65b2369e)),
            (^(key[63:32] & 32'h66793b3c)),
            (^(key[63:32] & 32'h5cd59455)),
            (^(key[63:32] & 32'h1f74fb20)),
            (^(key[63:32] & 32'h3920b892)),
            (^(key[63:32] & 32'h34e207d0)),
            (^(key[63:32] & 32'hb406eaeb))};
    end
    always @(*) begin
        addr = {4'h0, (chunk_parity_0 ^ chunk_parity_1 ^ 12'h0)};
    end
endmodule // bloom_core_parts_1_hash


module bloom_core_parts_1_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_1_ram


module bloom_core_parts_2(clock,reset,key1,is_rb2,rb_addr2,insert4,insert5,clear5,sweep_en,sweep_addr,bit5,fill);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  insert4;
    input wire  insert5;
    input wire  clear5;
    input wire  sweep_en;
    input wire  [15:0] sweep_addr;
    output reg  bit5;
    output reg  [16:0] fill;
    
    // Constant declarations
    localparam  forwarding_enabled = 1'b1;
    localparam  fill_at_reset = 17'b0;
    localparam  fill_zero = 17'b0;
    localparam  fill_one = 17'b1;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
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
    reg  [15:0] addr5$d;
    wire  [15:0] addr5$q;
    reg  addr5$clock;
    reg  forward5$d;
    wire  forward5$q;
    reg  forward5$clock;
    reg  [16:0] fill_count$d;
    wire  [16:0] fill_count$q;
    reg  fill_count$clock;
    
    // Local signals
    reg  [15:0] addr2;
    
    // Sub module instances
    bloom_core_parts_2_hash hash(
        .clock(hash$clock),
        .key(hash$key),
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
    bloom_core_parts_2_addr5 addr5(
        .d(addr5$d),
        .q(addr5$q),
        .clock(addr5$clock)
    );
    bloom_core_parts_2_forward5 forward5(
        .d(forward5$d),
        .q(forward5$q),
        .clock(forward5$clock)
    );
    bloom_core_parts_2_fill_count fill_count(
        .d(fill_count$d),
        .q(fill_count$q),
        .clock(fill_count$clock)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        addr5$clock = clock;
        forward5$clock = clock;
        fill_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        addr5$d = addr5$q;
        forward5$d = forward5$q;
        fill_count$d = fill_count$q;
        hash$clock = clock;
        hash$key = key1;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        addr4$d = addr3$q;
        addr5$d = addr4$q;
        forward5$d = forwarding_enabled & (insert5 & (addr4$q == addr5$q));
        ram$write_enable = insert4 | sweep_en;
        if (sweep_en) begin
            ram$write_addr = sweep_addr;
        end
        else begin
            ram$write_addr = addr4$q;
        end
        ram$write_data = ~sweep_en;
        bit5 = ram$read_data | forward5$q;
        if (reset) begin
            fill_count$d = fill_at_reset;
        end
        else if (clear5) begin
            fill_count$d = fill_zero;
        end
        else if (insert5 & ~(ram$read_data | forward5$q)) begin
            fill_count$d = fill_count$q + fill_one;
        end
        fill = fill_count$q;
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


module bloom_core_parts_2_addr5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_2_addr5


module bloom_core_parts_2_fill_count(d,q,clock);
    
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
          
endmodule // bloom_core_parts_2_fill_count


module bloom_core_parts_2_forward5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_2_forward5


module bloom_core_parts_2_hash(clock,key,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    output reg  [15:0] addr;
    
    // Update code (custom)
    reg [11:0] chunk_parity_0;
    reg [11:0] chunk_parity_1;
    always @(posedge clock) begin
        chunk_parity_0 <= {(^(key[31:0] & 32'h8c3253c8)),
            (^(key[31:0] & 32'h1cdc6ee0)),
            (^(key[31:0] & 32'h12dda90f)),
            (^(key[31:0] & 32'heec54e7d)),
            (^(key[31:0] & 32'h8f3a26dc)),
            (^(key[31:0] & 32'h81c57249)),
            (^(key[31:0] & 32'hd4e571f8)),
            (^(key[31:0] & 32'h341be8ae)),
            (^(key[31:0] & 32'h262d0db1)),
            (^(key[31:0] & 32'hf6e66261)),
            (^(key[31:0] & 32'he0fb509c)),
            (^(key[31:0] & 32'hd675d177))};
        chunk_parity_1 <= {(^(key[63:32] & 32'h1a3fa84c)),
            (^(key[63:32] & 32'h458e7e90)),
            (^(key[63:32] & 32'h49411e3a)),
            (^(key[63:32] & 32'h0c2a9a88)),
            (^(key[63:32] & 32'hc2eecc52)),
            (^(key[63:32] & 32'h45d641c4)),
            (^(key[63:32] & 32'hfc114922)),
            (^(key[63:32] & 32'he0f1ab38)),
            (^(key[63:32] & 32'he2f390e7)),
            (^(key[63:32] & 32'h2493f56c)),
            (^(key[63:32] & 32'heeb028d5)),
            (^(key[63:32] & 32'hbe7af677))};
    end
    always @(*) begin
        addr = {4'h0, (chunk_parity_0 ^ chunk_parity_1 ^ 12'h0)};
    end
endmodule // bloom_core_parts_2_hash


module bloom_core_parts_2_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_2_ram


module bloom_core_parts_3(clock,reset,key1,is_rb2,rb_addr2,insert4,insert5,clear5,sweep_en,sweep_addr,bit5,fill);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [63:0] key1;
    input wire  is_rb2;
    input wire  [15:0] rb_addr2;
    input wire  insert4;
    input wire  insert5;
    input wire  clear5;
    input wire  sweep_en;
    input wire  [15:0] sweep_addr;
    output reg  bit5;
    output reg  [16:0] fill;
    
    // Constant declarations
    localparam  forwarding_enabled = 1'b1;
    localparam  fill_at_reset = 17'b0;
    localparam  fill_zero = 17'b0;
    localparam  fill_one = 17'b1;
    
    // Stub signals
    reg  hash$clock;
    reg  [63:0] hash$key;
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
    reg  [15:0] addr5$d;
    wire  [15:0] addr5$q;
    reg  addr5$clock;
    reg  forward5$d;
    wire  forward5$q;
    reg  forward5$clock;
    reg  [16:0] fill_count$d;
    wire  [16:0] fill_count$q;
    reg  fill_count$clock;
    
    // Local signals
    reg  [15:0] addr2;
    
    // Sub module instances
    bloom_core_parts_3_hash hash(
        .clock(hash$clock),
        .key(hash$key),
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
    bloom_core_parts_3_addr5 addr5(
        .d(addr5$d),
        .q(addr5$q),
        .clock(addr5$clock)
    );
    bloom_core_parts_3_forward5 forward5(
        .d(forward5$d),
        .q(forward5$q),
        .clock(forward5$clock)
    );
    bloom_core_parts_3_fill_count fill_count(
        .d(fill_count$d),
        .q(fill_count$q),
        .clock(fill_count$clock)
    );
    
    // Update code
    always @(*) begin
        addr3$clock = clock;
        addr4$clock = clock;
        addr5$clock = clock;
        forward5$clock = clock;
        fill_count$clock = clock;
        addr3$d = addr3$q;
        addr4$d = addr4$q;
        addr5$d = addr5$q;
        forward5$d = forward5$q;
        fill_count$d = fill_count$q;
        hash$clock = clock;
        hash$key = key1;
        ram$clock = clock;
        if (is_rb2) begin
            addr2 = rb_addr2;
        end
        else begin
            addr2 = hash$addr;
        end
        addr3$d = addr2;
        ram$read_addr = addr3$q;
        addr4$d = addr3$q;
        addr5$d = addr4$q;
        forward5$d = forwarding_enabled & (insert5 & (addr4$q == addr5$q));
        ram$write_enable = insert4 | sweep_en;
        if (sweep_en) begin
            ram$write_addr = sweep_addr;
        end
        else begin
            ram$write_addr = addr4$q;
        end
        ram$write_data = ~sweep_en;
        bit5 = ram$read_data | forward5$q;
        if (reset) begin
            fill_count$d = fill_at_reset;
        end
        else if (clear5) begin
            fill_count$d = fill_zero;
        end
        else if (insert5 & ~(ram$read_data | forward5$q)) begin
            fill_count$d = fill_count$q + fill_one;
        end
        fill = fill_count$q;
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


module bloom_core_parts_3_addr5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_3_addr5


module bloom_core_parts_3_fill_count(d,q,clock);
    
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
          
endmodule // bloom_core_parts_3_fill_count


module bloom_core_parts_3_forward5(d,q,clock);
    
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
          
endmodule // bloom_core_parts_3_forward5


module bloom_core_parts_3_hash(clock,key,addr);
    
    // Module arguments
    input wire  clock;
    input wire  [63:0] key;
    output reg  [15:0] addr;
    
    // Update code (custom)
    reg [11:0] chunk_parity_0;
    reg [11:0] chunk_parity_1;
    always @(posedge clock) begin
        chunk_parity_0 <= {(^(key[31:0] & 32'h9c125868)),
            (^(key[31:0] & 32'h50dd11d2)),
            (^(key[31:0] & 32'h1d658b57)),
            (^(key[31:0] & 32'h53418d00)),
            (^(key[31:0] & 32'h9e0b8315)),
            (^(key[31:0] & 32'hee491b42)),
            (^(key[31:0] & 32'h1b7c3514)),
            (^(key[31:0] & 32'hcba9e74b)),
            (^(key[31:0] & 32'hccc9f4c1)),
            (^(key[31:0] & 32'h37d0e9f7)),
            (^(key[31:0] & 32'h21b0335a)),
            (^(key[31:0] & 32'h28a98374))};
        chunk_parity_1 <= {(^(key[63:32] & 32'h5a419b73)),
            (^(key[63:32] & 32'h5ffb6f1e)),
            (^(key[63:32] & 32'h38604447)),
            (^(key[63:32] & 32'hb61c04f6)),
            (^(key[63:32] & 32'h8d0286e2)),
            (^(key[63:32] & 32'hd1e8bf66)),
            (^(key[63:32] & 32'had4fd1e3)),
            (^(key[63:32] & 32'hef1bbc92)),
            (^(key[63:32] & 32'h150b8aed)),
            (^(key[63:32] & 32'h9d2e5c87)),
            (^(key[63:32] & 32'he5957e3e)),
            (^(key[63:32] & 32'hba2b348f))};
    end
    always @(*) begin
        addr = {4'h0, (chunk_parity_0 ^ chunk_parity_1 ^ 12'h0)};
    end
endmodule // bloom_core_parts_3_hash


module bloom_core_parts_3_ram(clock,read_addr,read_data,write_enable,write_addr,write_data);
    
    // Module arguments
    input wire  clock;
    input wire  [15:0] read_addr;
    output reg  read_data;
    input wire  write_enable;
    input wire  [15:0] write_addr;
    input wire  write_data;
    
    // Update code (custom)
    (* no_rw_check, ram_style = "block" *)
    reg mem [0:4095];
    reg read_raw;
    always @(posedge clock) begin
        if (write_enable) begin
            mem[write_addr[11:0]] <= write_data;
        end
        read_raw <= mem[read_addr[11:0]];
    end
    always @(posedge clock) begin
        read_data <= read_raw;
    end
    /* verilator lint_off UNUSED */
    wire unused_high_address = &{1'b0, read_addr[15:12], write_addr[15:12], 1'b0};
    /* verilator lint_on UNUSED */
endmodule // bloom_core_parts_3_ram
