import type { Event, EventType } from "./event";
import type { EventDetail, EventList } from "./event-result";

// The events of the API descriptions' examples: one morning of a haulier's
// key. Document PED-2026-0001 is issued, then corrected by PED-2026-0001-B,
// whose QR link an inspector opens at the roadside; another document, issued
// by mistake, is deleted.

const ORIGINAL = {
  uuid: "0b6c7a52-3f1e-4d8a-9c2b-5e4f3a2d1c0b",
  reference: "PED-2026-0001",
  rectifies_uuid: null,
  created_at: "2026-11-21T08:30:00.000Z",
  transport_date: "2026-11-21",
};

const CORRECTION = {
  uuid: "6e1f0d3a-9b2c-4e5f-8a7b-1c2d3e4f5a6b",
  reference: "PED-2026-0001-B",
  rectifies_uuid: ORIGINAL.uuid,
  created_at: "2026-11-21T09:05:12.480Z",
  transport_date: "2026-11-21",
};

const MISTAKE = {
  uuid: "3a9d5e2f-7c41-4b8e-a6d0-2f4e6a8c0b1d",
  reference: null,
  rectifies_uuid: null,
  created_at: "2026-11-21T09:12:44.031Z",
  transport_date: "2026-11-22",
};

export const EXAMPLE_ENDPOINT_ID = "we_4bT9qLm2Xc8Rz1Vn6Kd3Hs7P";

const ACCESSED_AT = "2026-11-21T11:47:30.215Z";

/** One event of each type. */
export const EXAMPLE_EVENTS = {
  "document.issued": {
    id: "evt_9c41d2e07b5a3f6810c2e4d1",
    type: "document.issued",
    created_at: ORIGINAL.created_at,
    environment: "live",
    data: ORIGINAL,
  },
  "document.rectified": {
    id: "evt_2b7e0f19c4a85d3e6f01a9b7",
    type: "document.rectified",
    created_at: CORRECTION.created_at,
    environment: "live",
    data: ORIGINAL,
  },
  "document.deleted": {
    id: "evt_7d3a5c81e2f06b94a1d5c3e8",
    type: "document.deleted",
    created_at: "2026-11-21T09:20:05.662Z",
    environment: "live",
    data: MISTAKE,
  },
  "document.accessed": {
    id: "evt_5f0c2a9e41d37b68a0c4e1f2",
    type: "document.accessed",
    created_at: ACCESSED_AT,
    environment: "live",
    data: { ...CORRECTION, accessed_at: ACCESSED_AT, first: true, via: "qr" },
  },
  "document.efti_follow_up": {
    id: "evt_8a2f4c6e0b1d3957a4c8e2f0",
    type: "document.efti_follow_up",
    created_at: "2026-11-21T11:52:03.907Z",
    environment: "live",
    data: {
      ...CORRECTION,
      dataset_id: "019aa5e1-7f00-8abc-8013-5c2e9d7a4b60",
      shipment: 1,
      message: "Control at A-3 km 212: documents checked, no infringement.",
    },
  },
  ping: {
    id: "evt_e80b6d4f2a1c9375b0e2d6a4",
    type: "ping",
    created_at: "2026-11-21T07:58:19.004Z",
    environment: "live",
    data: { webhook_endpoint_id: EXAMPLE_ENDPOINT_ID },
  },
} as const satisfies { [Type in EventType]: Event & { type: Type } };

const CORRECTION_ISSUED = {
  id: "evt_41a7c0e9d2b83f5c6e1d0a94",
  type: "document.issued",
  created_at: CORRECTION.created_at,
  environment: "live",
  data: CORRECTION,
} as const;

/** A first page of that morning's events, newest first. */
export const EXAMPLE_EVENT_LIST: EventList = {
  data: [
    EXAMPLE_EVENTS["document.accessed"],
    EXAMPLE_EVENTS["document.deleted"],
    EXAMPLE_EVENTS["document.rectified"],
    CORRECTION_ISSUED,
  ],
  has_more: true,
};

// Each example below is one object with an `id` no other example object
// has at its top: a JSON Schema library walking the whole document (the
// tests' contract check) takes such an `id` for a schema's own.

/**
 * The correction's event, delivered to one endpoint at the second attempt,
 * and still retried to another that did not answer in time.
 */
export const EXAMPLE_EVENT_DETAIL: EventDetail = {
  ...CORRECTION_ISSUED,
  deliveries: [
    {
      endpoint_id: EXAMPLE_ENDPOINT_ID,
      status: "delivered",
      attempts: [
        {
          attempted_at: "2026-11-21T09:05:13.002Z",
          status_code: 503,
          error: null,
          duration_ms: 412,
        },
        {
          attempted_at: "2026-11-21T09:05:18.310Z",
          status_code: 200,
          error: null,
          duration_ms: 88,
        },
      ],
      next_attempt_at: null,
    },
    {
      endpoint_id: "we_8Hk2Pw5Yd9Ns3Lf7Bq1Xv4Tm",
      status: "pending",
      attempts: [
        {
          attempted_at: "2026-11-21T09:05:13.004Z",
          status_code: null,
          error: "timeout",
          duration_ms: 10000,
        },
      ],
      next_attempt_at: "2026-11-21T09:05:27.871Z",
    },
  ],
};

const SCANNED_AGAIN_AT = "2026-11-21T14:02:11.530Z";

/**
 * A later QR access's event redelivered at 15:30 to the endpoint that failed
 * it, once it was back: due again at once.
 */
export const EXAMPLE_REDELIVERY: EventDetail = {
  id: "evt_0d6e2b9f14c8a7350e9b1f62",
  type: "document.accessed",
  created_at: SCANNED_AGAIN_AT,
  environment: "live",
  data: {
    ...CORRECTION,
    accessed_at: SCANNED_AGAIN_AT,
    first: false,
    via: "qr",
  },
  deliveries: [
    {
      endpoint_id: EXAMPLE_ENDPOINT_ID,
      status: "pending",
      attempts: [
        {
          attempted_at: "2026-11-21T14:02:12.118Z",
          status_code: 502,
          error: null,
          duration_ms: 231,
        },
        {
          attempted_at: "2026-11-21T14:02:17.840Z",
          status_code: null,
          error: "connection",
          duration_ms: 12,
        },
      ],
      next_attempt_at: "2026-11-21T15:30:00.000Z",
    },
  ],
};
