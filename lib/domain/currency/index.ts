export { baseCurrency, currencies, priceCapEur, toEur, type CurrencyRates } from "./currencies";
export { cachedRates, eurPerUnitValue, listRates, loadRates, rateCurrency, setRate, withdrawRate } from "./rates";
