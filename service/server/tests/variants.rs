//! ListVariants: every hosted game with its metadata, paged per AIP-158.

mod common;

use common::*;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn variants_are_listed_with_their_metadata() {
    let server = start().await;
    let mut client = server.variants().await;
    let listed = client
        .list_variants(pb::ListVariantsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(listed.next_page_token.is_empty());
    let soccer = listed
        .variants
        .iter()
        .find(|v| v.id == SOCCER_CHESS)
        .expect("soccer chess hosted");
    assert_eq!((soccer.files, soccer.ranks), (11, 17));
    assert_eq!(soccer.seats, ["first", "second"]);
    assert_eq!(soccer.turn_structure, pb::TurnStructure::MultiAction as i32);
    assert!(soccer.setup_phase);
    assert!(!soccer.hidden_information);
    assert!(!soccer.rules_version.is_empty());
    let sets = soccer
        .options
        .iter()
        .find(|o| o.name == "sets_per_game")
        .expect("sets option");
    assert_eq!(sets.r#type, pb::OptionType::Int as i32);
    assert_eq!(
        sets.default_value.as_ref().unwrap().kind,
        Some(pb::option_value::Kind::IntValue(30))
    );
    assert!(sets.min <= 30 && 30 <= sets.max);
    server.stop().await;
}

#[tokio::test]
async fn variants_page_one_at_a_time_and_bad_tokens_are_refused() {
    let server = start().await;
    let mut client = server.variants().await;
    let all = client
        .list_variants(pb::ListVariantsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .variants;

    let mut paged = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_variants(pb::ListVariantsRequest {
                page_size: 1,
                page_token: token,
            })
            .await
            .unwrap()
            .into_inner();
        assert!(page.variants.len() <= 1);
        paged.extend(page.variants);
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(paged, all);

    for (page_size, page_token) in [(0, "garbage"), (-1, "")] {
        let status = client
            .list_variants(pb::ListVariantsRequest {
                page_size,
                page_token: page_token.into(),
            })
            .await
            .unwrap_err();
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert_eq!(reason(&status), "INVALID_ARGUMENT");
    }
    server.stop().await;
}
