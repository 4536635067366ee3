export { eurPerUnitValue, listRates, loadRates, rateCurrency, rateMaxAgeDays, setRate, setRateInput } from "./rates";
