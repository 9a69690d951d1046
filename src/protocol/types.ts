/**
 * Wire types the protocol module uses. Structural stand-ins until generated/types exists;
 * the generated types are assignable to these.
 */
export interface FrameId {
  provider_id: string;
  frame_id: string;
  content_digest?: string | null;
}
