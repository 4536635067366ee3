export { cachedRates, eurPerUnitValue, listRates, loadRates, rateCurrency, setRate, withdrawRate } from "./rates";
