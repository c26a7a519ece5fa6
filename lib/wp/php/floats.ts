/**
 * PHP float formatting: phpFloatRepr (serialize()/json_encode()/var_export(), serialize_precision=-1)
 * and phpFloatToString (the `(string)` cast, precision=14), both following zend_gcvt's layout.
 * Kept on its own because values, serialize and maybe_serialize all print floats and it needs nothing else.
 */

/** A float as serialize()/json_encode()/var_export() print it (serialize_precision=-1): shortest repr, `1.0E+25`. */
export function phpFloatRepr(value: number): string {
  return formatFloat(value, 0);
}

/** A float as PHP's `(string)` cast / echo prints it (precision=14): `0.30000000000000004` → `0.3`. */
export function phpFloatToString(value: number): string {
  return formatFloat(value, 14);
}

/**
 * The layout rules of PHP's zend_gcvt: digits come from the shortest round-trip repr (precision 0)
 * or are rounded half-even to `precision` significant digits; scientific notation is used when
 * the decimal exponent is above the digit budget (17 for shortest) or the value is below 1e-4.
 */
function formatFloat(value: number, precision: number): string {
  if (Number.isNaN(value)) return 'NAN';
  if (value === Infinity) return 'INF';
  if (value === -Infinity) return '-INF';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [digits, decpt] = value === 0 ? ['0', 1] : significantDigits(Math.abs(value), precision);
  const budget = precision === 0 ? 17 : precision;
  if (decpt < -3 || decpt > budget) {
    const exp = decpt - 1;
    const mantissa = digits.length === 1 ? `${digits}.0` : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${mantissa}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Significant digits without trailing zeros, and the decimal point position (value = 0.DIGITS × 10^decpt). */
function significantDigits(abs: number, precision: number): [string, number] {
  let text = precision === 0 ? abs.toExponential() : abs.toExponential(precision - 1);
  if (precision > 0) {
    // JS rounds exact ties up; PHP's dtoa rounds them to even. Detect an exact tie from the full expansion.
    const exact = abs.toExponential(100);
    const [exactMantissa] = exact.split('e');
    const exactDigits = exactMantissa!.replace('.', '');
    const rest = exactDigits.slice(precision);
    if (/^50*$/.test(rest) && Number(exactDigits[precision - 1]) % 2 === 0) {
      text = `${exactDigits[0]}.${exactDigits.slice(1, precision)}e${exact.split('e')[1]}`;
    }
  }
  const [mantissa, exponent] = text.split('e');
  const digits = mantissa!.replace('.', '').replace(/0+$/, '') || '0';
  return [digits, Number(exponent) + 1];
}
