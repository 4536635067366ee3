/**
 * A complete, valid listing body: an apartment for sale with every field an apartment requires.
 * It is the example of the OpenAPI document, and the base of tests and benchmarks.
 */
export const exampleApartment = {
  type: "apartment",
  transaction: "sale",
  title: "Apartament 3 camere Floreasca",
  description: "Apartament luminos cu trei camere, renovat recent, aproape de parc și de metrou.",
  city: "București",
  county: "București",
  street: "Strada Barbu Văcărescu",
  street_number: "12",
  latitude: 44.4612,
  longitude: 26.1003,
  rooms: 3,
  bedrooms: 2,
  floor: "4",
  total_floors: 8,
  usable_area_sqm: 78.5,
  partitioning: "detached",
  price: 185000,
  price_currency: "EUR",
} as const;
