/* The firmware is freestanding (no C library); the register map's header
 * needs only static_assert from <assert.h>. */
#ifndef BLOOM_FIRMWARE_ASSERT_H
#define BLOOM_FIRMWARE_ASSERT_H
#define static_assert _Static_assert
#endif
