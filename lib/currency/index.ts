export { eurPerUnitValue, listRates, loadRates, rateCurrency, setRate, setRateInput, withdrawRate } from "./rates";
