/** The answer to create in the requested `output-format` (SPEC.md §5): JSON data, PNG or SVG. */
import type { FastifyReply } from 'fastify';
import type { QrRenderSlot } from '../qr/render-pool.js';
import { ErxError } from '../errors.js';
import type { CreateResult } from '../service/index.js';

const DEFAULT_SIZE = 400;
const MIN_SIZE = 64;
const MAX_SIZE = 2048;

/**
 * The PNG width asked for by `size` (default 400); outside 64..2048 is a 400. Read before the
 * prescription is created, so a bad `size` refuses the call without storing anything.
 */
export function pixelSize(size: string | undefined): number {
  if (size === undefined) return DEFAULT_SIZE;
  const n = Number(size);
  if (!Number.isInteger(n) || n < MIN_SIZE || n > MAX_SIZE) {
    throw new ErxError(
      'bad_request',
      `size must be a whole number from ${MIN_SIZE} to ${MAX_SIZE}.`,
    );
  }
  return n;
}

/**
 * Sends `created` as `data` JSON (with `receipt`), a PNG (`qrcode`) or an SVG (`svg`) of its QR
 * code, or of the codes of its part links stacked with `k/N` under each
 * (`../qr/render-codes.ts`); the image is rendered in the place `qr` took in the render queue,
 * off the event loop.
 */
export async function renderCreated(
  reply: FastifyReply,
  created: CreateResult,
  format: string,
  width: number,
  qr: QrRenderSlot | undefined,
  receipt: string | undefined,
): Promise<FastifyReply> {
  reply.header('x-prescription-id', created.prescriptionId);
  if (format === 'data') {
    return reply.send({
      SignedPrescriptionData: created.link,
      ...(created.parts === undefined ? {} : { SignedPrescriptionParts: created.parts }),
      prescription_id: created.prescriptionId,
      ...(receipt === undefined ? {} : { receipt }),
    });
  }
  // An image has no field to carry it: the receipt goes in a header, base64 (it spans lines).
  if (receipt !== undefined) reply.header('erx-receipt', Buffer.from(receipt).toString('base64'));
  if (qr === undefined) throw new Error(`no place in the render queue for ${format}`);
  const codes = created.parts ?? [created.link];
  if (format === 'svg') {
    const svg = await qr.svg(codes, width);
    return reply.type('image/svg+xml').send(svg);
  }
  const png = await qr.png(codes, width);
  return reply.type('image/png').send(png);
}
