export { cachedRates, eurPerUnitValue, listRates, loadRates, rateCurrency, setRate, setRateInput, withdrawRate } from "./rates";
