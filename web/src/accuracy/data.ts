import { api, unwrap } from '../api/client';

/** What the backtests at training measured for the models in force (GET /v1/model_card). */
export async function loadModelCard() {
  return unwrap(await api.GET('/v1/model_card', {}));
}

export type ModelCard = Awaited<ReturnType<typeof loadModelCard>>;
export type Models = ModelCard['models'];
