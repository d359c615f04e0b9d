/* darray elementwise helpers, inlined at the top of every generated elementwise kernel.
 * Entry points: none (helper functions only). Complex numbers are float2/double2 (re, im).
 */
