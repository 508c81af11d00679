package live

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"stwb/serve"
)

// stwb deploy turns on the design's TTL (UpdateTimeToLive: CreateTable takes no TTL;
// TTL.html), here against stwb serve, which answers DescribeTimeToLive as DynamoDB.
func TestDeployTurnsOnTTL(t *testing.T) {
	d := smallDesign()
	d.Table.TTL = "expiresAt"
	hs := httptest.NewServer(serve.New(serve.Options{}))
	defer hs.Close()
	ctx := context.Background()
	db, err := NewClient(ctx, Config{Endpoint: hs.URL, Region: "us-east-1",
		Credentials: credentials.NewStaticCredentialsProvider("x", "y", "")})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Deploy(ctx, db, d, DeployOptions{Log: &log}); err != nil {
		t.Fatal(err)
	}
	out, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(d.Table.Name)})
	if err != nil {
		t.Fatal(err)
	}
	if desc := out.TimeToLiveDescription; desc == nil || desc.TimeToLiveStatus != types.TimeToLiveStatusEnabled || aws.ToString(desc.AttributeName) != "expiresAt" {
		t.Errorf("TTL after deploy: %+v, want ENABLED on expiresAt\n%s", desc, log.String())
	}
	if !bytes.Contains(log.Bytes(), []byte("TTL on: items expire by expiresAt")) {
		t.Errorf("deploy does not say it turned TTL on:\n%s", log.String())
	}
}
