// A hand-in code: the learner's results on one page as one line of text to paste into a form or an e-mail, which
// `zadachnik gradebook` reads back (zadachnik/exports/handin.py; tests/vectors/handin.json holds cases both
// sides run). "ZDK1." + the results as base64url JSON + "." + the CRC-32 of that base64 text, in hex: the
// checksum tells a code cut or changed on its way from one that arrived whole.

export const PREFIX = "ZDK1";

const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  return crc >>> 0;
});

// CRC-32 (zlib's) of ASCII text.
export function crc32(text) {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  // In slices: one call with every byte as an argument overflows the stack on a long answer.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// results: {course, module, time (Unix seconds), questions: [[id, variant or null, status or null (not checked),
// score from 0 to 1 or null, the learner's own text ("" if none)], …]}
export function handInCode(results) {
  const payload = base64url(JSON.stringify({ v: 1, c: results.course, m: results.module, t: results.time,
    q: results.questions }));
  return `${PREFIX}.${payload}.${crc32(payload).toString(16).padStart(8, "0")}`;
}
