// The services the page calls, over grpc-web on the server that served it: the same contract
// every bot uses.
import { createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { MatchService } from "./gen/pitchmate/v1/match_service_pb.js";
import { RatingService } from "./gen/pitchmate/v1/rating_service_pb.js";
import { TournamentService } from "./gen/pitchmate/v1/tournament_service_pb.js";
import { VariantService } from "./gen/pitchmate/v1/variant_service_pb.js";

const transport = createGrpcWebTransport({ baseUrl: location.origin });

export const matches = createClient(MatchService, transport);
export const variants = createClient(VariantService, transport);
export const ratings = createClient(RatingService, transport);
export const tournaments = createClient(TournamentService, transport);
