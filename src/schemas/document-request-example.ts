// Fictitious data only: valid check characters, no real company or plate.

/** A complete request body, as a haulier's software would send it. */
export const exampleRequest = {
  transport_date: "2026-11-21",
  shipper: {
    name: "Cerámicas Ejemplo SL",
    tax_country: "ES",
    tax_id: "B12345674",
    address: {
      street: "Calle Mayor 1",
      postal_code: "12001",
      city: "Castellón de la Plana",
      country: "ES",
    },
  },
  carrier: {
    name: "Transportes Ficticios SA",
    tax_country: "ES",
    tax_id: "12345678Z",
  },
  origin: {
    place: "Almacén Norte, muelle 4",
    street: "Polígono Industrial Sur",
    postal_code: "12006",
    city: "Castellón de la Plana",
    country: "ES",
  },
  destination: {
    place: "Centro logístico Levante",
    city: "Valencia",
    country: "ES",
  },
  goods: { description: "Palés de azulejos cerámicos", weight_kg: "12345.678" },
  vehicle: {
    country: "ES",
    registration: "1234BCD",
    trailer_country: "ES",
    trailer_registration: "R1234BCD",
  },
  reference: "PED-2026-0001",
  observations: "Carga frágil.",
  metadata: { order_id: 981 },
};

/** A distribution route: one truck, one shipper, one carrier, three drops. */
export const exampleGroupedRequest = (() => {
  const { origin, destination, goods, reference, metadata, ...document } =
    exampleRequest;
  return {
    ...document,
    shipments: [
      {
        origin,
        destination,
        goods: {
          description: "Palés de azulejos cerámicos",
          weight_kg: "8200",
        },
      },
      {
        origin,
        destination: {
          place: "Obra Residencial Mar",
          street: "Avenida del Puerto 12",
          postal_code: "46011",
          city: "Valencia",
          country: "ES",
        },
        goods: {
          description: "Adhesivo cementoso en sacos",
          weight_kg: "2400.5",
        },
      },
      {
        origin,
        destination: {
          place: "Almacén Ribera",
          city: "Alzira",
          country: "ES",
        },
        goods: {
          description: "Expositores de muestras",
          alternative_measure: { value: "3", unit: "palés" },
        },
      },
    ],
    reference: "RUTA-2026-1121-A",
    metadata: { route_id: 77 },
  };
})();
