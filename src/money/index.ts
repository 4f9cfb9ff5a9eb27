export { type RateTable, RateTableError, ECB_SOURCE, createRateTable, rateOf, defaultRateTable, isIsoDate } from './rates.js';
export { type CurrencyResult, resolveCurrency, isIsoCurrency, usableCurrencies, ISO_4217_LIST_DATE } from './currencies.js';
export { type MoneyPair, fromEur, toEur, roundMoney, moneyPair, moneyPairFromAmount } from './convert.js';
export { EcbCsvError, parseEcbCsv, parseEcbDate } from './ecb-csv.js';
